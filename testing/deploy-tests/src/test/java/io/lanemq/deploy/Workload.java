package io.lanemq.deploy;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One service container of the base as the fabric8 model reads it from deploy/kubernetes: its pod (volumes, user,
 * termination grace), its container (image, args, env, ports, mounts) and, for a StatefulSet, its claim templates.
 */
record Workload(String owner, PodSpec pod, Container container, Set<String> claimTemplates, ServiceArguments service) {

    /** Every container of every Deployment and StatefulSet of the base. */
    static List<Workload> ofBase() {
        Kustomization base = Kustomization.read(KubernetesManifestsTest.BASE);
        List<Workload> workloads = new ArrayList<>();
        for (HasMetadata object : KubernetesManifestsTest.parseAll(base.resources).values()) {
            PodSpec pod = KubernetesManifestsTest.podSpec(object);
            if (pod == null) {
                continue;
            }
            Set<String> claims = object instanceof StatefulSet s ? s.getSpec().getVolumeClaimTemplates().stream()
                    .map(c -> c.getMetadata().getName()).collect(Collectors.toSet()) : Set.of();
            for (Container container : pod.getContainers()) {
                workloads.add(new Workload(object.getKind() + "/" + object.getMetadata().getName(), pod, container,
                        claims, ServiceArguments.ofImage(container.getImage())));
            }
        }
        return workloads;
    }

    /** The image's repository without its tag, as the images are built ({@code lanemq/delay-server}). */
    String image() {
        return service.image;
    }

    long terminationGraceSeconds() {
        return pod.getTerminationGracePeriodSeconds();
    }
}

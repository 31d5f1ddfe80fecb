package io.lanemq.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ConfigMapVolumeSource;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretVolumeSource;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.openshift.api.model.monitoring.v1.PrometheusRule;
import io.fabric8.openshift.api.model.monitoring.v1.ServiceMonitor;
import io.lanemq.config.ConfigSources;
import io.lanemq.service.http.ServiceEndpoints;
import io.lanemq.testkit.RepoRoot;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * deploy/kubernetes against the Kubernetes API model and against the services themselves: every document parses
 * into its fabric8 type with no field the type does not know (a misspelt or misplaced field is an error, not
 * silently dropped as a kubectl client-side apply would), every probe and scrape points at a path and port the
 * service really serves with the arguments the manifest gives it, every ConfigMap and Secret key a pod uses
 * exists, and every file path an argument names is mounted.
 */
class KubernetesManifestsTest {
    static final Path BASE = RepoRoot.resolve("deploy", "kubernetes");
    private static final Map<String, Class<? extends HasMetadata>> TYPES = Map.of(
            "v1/Namespace", Namespace.class,
            "v1/Service", Service.class,
            "v1/Secret", Secret.class,
            "apps/v1/Deployment", Deployment.class,
            "apps/v1/StatefulSet", StatefulSet.class,
            "policy/v1/PodDisruptionBudget", PodDisruptionBudget.class,
            "monitoring.coreos.com/v1/ServiceMonitor", ServiceMonitor.class,
            "monitoring.coreos.com/v1/PrometheusRule", PrometheusRule.class);

    private final Kustomization base = Kustomization.read(BASE);
    private final Map<String, HasMetadata> objects = parseAll(base.resources);

    @Test
    void everyDocumentIsAKnownKubernetesTypeWithNoUnknownField() {
        assertThat(objects).as("the base's objects").isNotEmpty();
        assertThat(objects.keySet()).as("what the base deploys").contains(
                "Deployment/lanemq-consumer-proxy", "Service/lanemq-consumer-proxy",
                "PodDisruptionBudget/lanemq-consumer-proxy", "StatefulSet/lanemq-delay-server",
                "Deployment/lanemq-dial-test", "Deployment/lanemq-console", "Service/lanemq-console",
                "ServiceMonitor/lanemq");
        assertThat(objects.keySet()).as("no secret values in the base").noneMatch(key -> key.startsWith("Secret/"));
        assertThat(parseAll(Kustomization.readAll(BASE.resolve("secrets.example.yaml")).stream()
                .map(d -> new Kustomization.Resource(BASE.resolve("secrets.example.yaml"), d)).toList()))
                .as("the example secrets parse too").hasSize(6);
    }

    @Test
    void theDelayServerKeepsAVolumePerInstanceOnTwoNodes() {
        StatefulSet delay = (StatefulSet) objects.get("StatefulSet/lanemq-delay-server");
        assertThat(delay.getSpec().getReplicas()).isEqualTo(2);
        assertThat(delay.getSpec().getVolumeClaimTemplates()).extracting(c -> c.getMetadata().getName())
                .containsExactly("store");
        assertThat(delay.getSpec().getTemplate().getSpec().getAffinity().getPodAntiAffinity()
                .getRequiredDuringSchedulingIgnoredDuringExecution())
                .as("never both instances on one node").singleElement()
                .satisfies(term -> assertThat(term.getTopologyKey()).isEqualTo("kubernetes.io/hostname"));
    }

    @Test
    void probesAndPortsPointAtWhatEachServiceServesWithItsArguments() {
        List<String> checked = new ArrayList<>();
        forEachContainer((owner, pod, container) -> {
            ServiceArguments service = ServiceArguments.ofImage(container.getImage());
            ServiceArguments.Parsed parsed = service.parse(container.getArgs());
            String where = owner + " container " + container.getName();
            assertThat(parsed.httpAddress().getAddress().isAnyLocalAddress())
                    .as(where + ": the operations address must be reachable by the kubelet and Prometheus, was "
                            + parsed.httpAddress()).isTrue();
            int served = parsed.httpAddress().getPort();
            assertThat(port(container, "http")).as(where + ": the port named http is the one served").isEqualTo(served);
            assertProbe(where + " liveness", container, container.getLivenessProbe(), ServiceEndpoints.LIVENESS_PATH, served);
            assertProbe(where + " readiness", container, container.getReadinessProbe(), ServiceEndpoints.READINESS_PATH, served);
            assertProbe(where + " startup", container, container.getStartupProbe(), ServiceEndpoints.LIVENESS_PATH, served);
            assertThat(pod.getTerminationGracePeriodSeconds())
                    .as(where + ": the kubelet waits longer than the service's readiness delay " + parsed.readinessDelay()
                            + " plus its own grace period " + parsed.shutdownGrace() + " before SIGKILL")
                    .isGreaterThan(parsed.readinessDelay().plus(parsed.shutdownGrace()).toSeconds());
            Probe readiness = container.getReadinessProbe();
            assertThat(parsed.readinessDelay().toSeconds())
                    .as(where + ": after SIGTERM the service serves, not ready, at least as long as its readiness probe "
                            + "takes to see it (periodSeconds x failureThreshold)")
                    .isGreaterThanOrEqualTo((long) readiness.getPeriodSeconds() * readiness.getFailureThreshold());
            assertThat(pod.getSecurityContext().getRunAsNonRoot()).as(where + " runs as non-root").isTrue();
            checked.add(service.name());
        });
        assertThat(checked).as("every service's containers were checked")
                .containsExactlyInAnyOrder("CONSUMER_PROXY", "DELAY_SERVER", "DIAL_TEST", "CONSOLE");
    }

    @Test
    void everyServiceAndTheServiceMonitorReachTheOperationsPort() {
        ServiceMonitor monitor = (ServiceMonitor) objects.get("ServiceMonitor/lanemq");
        assertThat(monitor.getSpec().getEndpoints()).singleElement().satisfies(endpoint -> {
            assertThat(endpoint.getPath()).isEqualTo(ServiceEndpoints.METRICS_PATH);
            assertThat(endpoint.getPort()).isEqualTo("http");
        });
        List<String> components = monitor.getSpec().getSelector().getMatchExpressions().get(0).getValues();
        for (HasMetadata object : objects.values()) {
            if (!(object instanceof Service service)) {
                continue;
            }
            String component = service.getMetadata().getLabels().get("app.kubernetes.io/component");
            assertThat(components).as(service.getMetadata().getName() + " is scraped").contains(component);
            assertThat(service.getSpec().getPorts()).extracting(ServicePort::getName).as(service.getMetadata().getName())
                    .contains("http");
            List<Container> selected = containersSelectedBy(service.getSpec().getSelector());
            assertThat(selected).as(service.getMetadata().getName() + " selects pods").isNotEmpty();
            for (ServicePort port : service.getSpec().getPorts()) {
                for (Container container : selected) {
                    assertThat(container.getPorts()).extracting(ContainerPort::getName)
                            .as(service.getMetadata().getName() + " targetPort " + port.getTargetPort().getStrVal())
                            .contains(port.getTargetPort().getStrVal());
                }
            }
        }
        for (HasMetadata object : objects.values()) {
            if (object instanceof PodDisruptionBudget pdb) {
                assertThat(containersSelectedBy(pdb.getSpec().getSelector().getMatchLabels()))
                        .as(pdb.getMetadata().getName() + " covers pods").isNotEmpty();
            }
        }
    }

    @Test
    void everyConfigMapAndSecretKeyAPodUsesExistsAndEveryPathAnArgumentNamesIsMounted() throws Exception {
        Map<String, Set<String>> configMaps = base.configMaps.stream().collect(Collectors.toMap(
                Kustomization.GeneratedConfigMap::name, c -> c.files().keySet()));
        Map<String, Set<String>> secrets = new LinkedHashMap<>();
        for (JsonNode secret : Kustomization.readAll(BASE.resolve("secrets.example.yaml"))) {
            assertThat(secret.path("metadata").path("namespace").asText()).isEqualTo(base.namespace);
            Set<String> keys = new java.util.TreeSet<>();
            secret.path("stringData").fieldNames().forEachRemaining(keys::add);
            secrets.put(secret.path("metadata").path("name").asText(), keys);
        }
        List<String> usedSecretKeys = new ArrayList<>();
        forEachContainer((owner, pod, container) -> {
            Map<String, Volume> volumes = pod.getVolumes().stream().collect(Collectors.toMap(Volume::getName, v -> v));
            for (Volume volume : pod.getVolumes()) {
                ConfigMapVolumeSource configMap = volume.getConfigMap();
                SecretVolumeSource secret = volume.getSecret();
                if (configMap != null) {
                    assertKeys(owner + " volume " + volume.getName(), configMaps, configMap.getName(), configMap.getItems());
                }
                if (secret != null) {
                    assertKeys(owner + " volume " + volume.getName(), secrets, secret.getSecretName(), secret.getItems());
                    secret.getItems().forEach(item -> usedSecretKeys.add(secret.getSecretName() + "/" + item.getKey()));
                }
            }
            for (EnvVar env : container.getEnv()) {
                if (env.getValueFrom() != null && env.getValueFrom().getSecretKeyRef() != null) {
                    var ref = env.getValueFrom().getSecretKeyRef();
                    assertThat(secrets.getOrDefault(ref.getName(), Set.of())).as(owner + " env " + env.getName())
                            .contains(ref.getKey());
                    usedSecretKeys.add(ref.getName() + "/" + ref.getKey());
                }
                if (env.getValueFrom() != null && env.getValueFrom().getConfigMapKeyRef() != null) {
                    var ref = env.getValueFrom().getConfigMapKeyRef();
                    assertThat(configMaps.getOrDefault(ref.getName(), Set.of())).as(owner + " env " + env.getName())
                            .contains(ref.getKey());
                }
            }
            for (VolumeMount mount : container.getVolumeMounts()) {
                assertThat(volumes.containsKey(mount.getName()) || claimTemplates(owner).contains(mount.getName()))
                        .as(owner + " mounts " + mount.getName() + ", a volume or claim template it has").isTrue();
                assertThat(mount.getSubPath()).as(owner + " " + mount.getName()
                        + ": a subPath mount never sees a ConfigMap or Secret update").isNull();
            }
            for (String arg : container.getArgs()) {
                filePath(arg).ifPresent(path -> assertThat(mountedFile(pod, container, path))
                        .as(owner + ": argument " + arg + " names a file no volume provides").isTrue());
            }
        });
        assertThat(usedSecretKeys).as("every example secret key is used by some pod")
                .containsExactlyInAnyOrderElementsOf(secrets.entrySet().stream()
                        .flatMap(e -> e.getValue().stream().map(k -> e.getKey() + "/" + k)).toList());
        Path platform = base.configMaps.stream().filter(c -> c.name().equals("lanemq-platform")).findFirst()
                .orElseThrow().files().get("platform.yaml");
        try (var source = ConfigSources.open("file:" + platform)) {
            assertThat(source.load().clusters()).as("the example platform configuration is valid").hasSize(2);
        }
    }

    @Test
    void theDashboardsAreConfigMapsForTheGrafanaSidecarMadeFromEveryDashboardFile() throws Exception {
        Path dashboards = RepoRoot.resolve("observability");
        List<Path> files;
        try (Stream<Path> list = Files.list(dashboards)) {
            files = list.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
        List<Path> generated = base.configMaps.stream().filter(c -> "1".equals(c.labels().get("grafana_dashboard")))
                .flatMap(c -> c.files().values().stream()).sorted().toList();
        assertThat(generated).as("every dashboard, from the tested file itself").containsExactlyElementsOf(files);
    }

    /**
     * The base renders with kubectl's kustomize and holds exactly the objects the reader above checked. This machine
     * kind carries kubectl 1.32 (kustomize 5.5) in a package of its own, which Debian's kubernetes-client would
     * collide with, so bin/setup-tools installs none. Under {@code CI=true} its absence fails the test; elsewhere only
     * this check is skipped, not the others.
     */
    @Test
    void kubectlKustomizeRendersExactlyTheCheckedObjects() throws Exception {
        List<String> kinds = kubectlKustomize().stream()
                .map(d -> d.path("kind").asText() + "/" + d.path("metadata").path("name").asText()).sorted().toList();
        List<String> expected = Stream.concat(objects.keySet().stream(),
                base.configMaps.stream().map(c -> "ConfigMap/" + c.name())).sorted().toList();
        assertThat(kinds).isEqualTo(expected);
    }

    /**
     * The dashboards' {@code $environment} on the services' series: the base labels every pod template with
     * {@code lanemq.io/environment} (one place, its kustomization; an overlay sets its own) and the ServiceMonitor
     * turns that pod label into the series label {@code environment}.
     */
    @Test
    void everyPodCarriesTheEnvironmentLabelTheServiceMonitorTurnsIntoTheSeriesLabel() throws Exception {
        ServiceMonitor monitor = (ServiceMonitor) objects.get("ServiceMonitor/lanemq");
        assertThat(monitor.getSpec().getEndpoints().get(0).getRelabelings()).as("the ServiceMonitor's relabeling")
                .anySatisfy(relabel -> {
                    assertThat(relabel.getSourceLabels()).containsExactly("__meta_kubernetes_pod_label_"
                            + ENVIRONMENT_LABEL.replaceAll("[^a-zA-Z0-9_]", "_"));
                    assertThat(relabel.getTargetLabel()).isEqualTo("environment");
                });
        List<String> pods = new ArrayList<>();
        for (JsonNode object : kubectlKustomize()) {
            String kind = object.path("kind").asText();
            if (kind.equals("Deployment") || kind.equals("StatefulSet")) {
                String name = object.path("metadata").path("name").asText();
                assertThat(object.path("spec").path("template").path("metadata").path("labels").path(ENVIRONMENT_LABEL).asText())
                        .as(name + "'s pods carry " + ENVIRONMENT_LABEL).isNotBlank();
                assertThat(object.path("spec").path("selector").path("matchLabels").has(ENVIRONMENT_LABEL))
                        .as(name + ": not in the selector (immutable: an overlay could not change it)").isFalse();
                pods.add(name);
            }
        }
        assertThat(pods).contains("lanemq-console", "lanemq-consumer-proxy", "lanemq-delay-server", "lanemq-dial-test");
    }

    private static final String ENVIRONMENT_LABEL = "lanemq.io/environment";

    /** The base as {@code kubectl kustomize} renders it; skipped where kubectl is missing, failed under CI=true. */
    private static List<JsonNode> kubectlKustomize() throws Exception {
        Optional<Path> kubectl = Stream.of(System.getenv().getOrDefault("PATH", "").split(":"))
                .map(dir -> Path.of(dir, "kubectl")).filter(Files::isExecutable).findFirst();
        if (kubectl.isEmpty() && "true".equals(System.getenv("CI"))) {
            org.junit.jupiter.api.Assertions.fail("kubectl is not on the PATH: under CI=true this check must run");
        }
        org.junit.jupiter.api.Assumptions.assumeTrue(kubectl.isPresent(), "kubectl is not installed");
        Process process = new ProcessBuilder(kubectl.get().toString(), "kustomize", BASE.toString())
                .redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(process.waitFor()).as("kubectl kustomize: " + output).isZero();
        Path rendered = Files.createTempFile("lanemq-rendered", ".yaml");
        try {
            Files.writeString(rendered, output);
            return Kustomization.readAll(rendered);
        } finally {
            Files.delete(rendered);
        }
    }

    // ---------------------------------------------------------------------------------------------------------

    interface ContainerCheck {
        void check(String owner, PodSpec pod, Container container);
    }

    private void forEachContainer(ContainerCheck check) {
        for (HasMetadata object : objects.values()) {
            PodSpec pod = podSpec(object);
            if (pod != null) {
                for (Container container : pod.getContainers()) {
                    check.check(object.getKind() + "/" + object.getMetadata().getName(), pod, container);
                }
            }
        }
    }

    private Set<String> claimTemplates(String owner) {
        return objects.get(owner) instanceof StatefulSet s ? s.getSpec().getVolumeClaimTemplates().stream()
                .map(c -> c.getMetadata().getName()).collect(Collectors.toSet()) : Set.of();
    }

    static PodSpec podSpec(HasMetadata object) {
        if (object instanceof Deployment d) {
            return d.getSpec().getTemplate().getSpec();
        }
        if (object instanceof StatefulSet s) {
            return s.getSpec().getTemplate().getSpec();
        }
        return null;
    }

    private List<Container> containersSelectedBy(Map<String, String> selector) {
        List<Container> selected = new ArrayList<>();
        for (HasMetadata object : objects.values()) {
            Map<String, String> labels = object instanceof Deployment d ? d.getSpec().getTemplate().getMetadata().getLabels()
                    : object instanceof StatefulSet s ? s.getSpec().getTemplate().getMetadata().getLabels() : null;
            if (labels != null && labels.entrySet().containsAll(selector.entrySet())) {
                selected.addAll(podSpec(object).getContainers());
            }
        }
        return selected;
    }

    private static int port(Container container, String name) {
        return container.getPorts().stream().filter(p -> name.equals(p.getName())).findFirst()
                .orElseThrow(() -> new AssertionError(container.getName() + " has no port named " + name))
                .getContainerPort();
    }

    private static void assertProbe(String where, Container container, Probe probe, String path, int served) {
        assertThat(probe).as(where + " probe").isNotNull();
        assertThat(probe.getHttpGet()).as(where + " is an HTTP GET").isNotNull();
        assertThat(probe.getHttpGet().getPath()).as(where + " path").isEqualTo(path);
        IntOrString port = probe.getHttpGet().getPort();
        int resolved = port.getIntVal() != null ? port.getIntVal() : port(container, port.getStrVal());
        assertThat(resolved).as(where + " port").isEqualTo(served);
    }

    private static void assertKeys(String where, Map<String, Set<String>> existing, String name, List<KeyToPath> items) {
        assertThat(existing).as(where + " refers to " + name).containsKey(name);
        assertThat(items).as(where + ": name the keys (items), so a missing one fails here, not in the pod").isNotEmpty();
        for (KeyToPath item : items) {
            assertThat(existing.get(name)).as(where + " key " + item.getKey()).contains(item.getKey());
        }
    }

    /** The absolute file path an argument names: {@code --x=/p}, {@code --x=file:/p}. */
    private static Optional<String> filePath(String arg) {
        String value = arg.contains("=") ? arg.substring(arg.indexOf('=') + 1) : arg;
        value = value.startsWith("file:") ? value.substring("file:".length()) : value;
        return value.startsWith("/etc/") ? Optional.of(value) : Optional.empty();
    }

    private static boolean mountedFile(PodSpec pod, Container container, String path) {
        for (VolumeMount mount : container.getVolumeMounts()) {
            if (!path.startsWith(mount.getMountPath() + "/")) {
                continue;
            }
            String inVolume = path.substring(mount.getMountPath().length() + 1);
            Volume volume = pod.getVolumes().stream().filter(v -> v.getName().equals(mount.getName())).findFirst().orElseThrow();
            List<KeyToPath> items = volume.getConfigMap() != null ? volume.getConfigMap().getItems()
                    : volume.getSecret() != null ? volume.getSecret().getItems() : List.of();
            return items.stream().anyMatch(item -> item.getPath().equals(inVolume));
        }
        return false;
    }

    static Map<String, HasMetadata> parseAll(List<Kustomization.Resource> resources) {
        Map<String, HasMetadata> parsed = new LinkedHashMap<>();
        for (Kustomization.Resource resource : resources) {
            String type = resource.document().path("apiVersion").asText() + "/" + resource.kind();
            Class<? extends HasMetadata> model = TYPES.get(type);
            assertThat(model).as(resource.file() + ": " + type + " is not a type this base is meant to hold").isNotNull();
            HasMetadata object;
            try {
                object = Kustomization.YAML.copy().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                        .treeToValue(resource.document(), model);
            } catch (Exception e) {
                throw new AssertionError(resource.file() + ": " + type + " " + resource.name() + " does not parse: "
                        + e.getMessage(), e);
            }
            List<String> unknown = new ArrayList<>();
            unknownFields(object, type + " " + resource.name(), unknown);
            assertThat(unknown).as(resource.file() + ": fields the Kubernetes API does not have").isEmpty();
            assertThat(parsed.put(resource.kind() + "/" + resource.name(), object))
                    .as(resource.file() + ": " + resource.kind() + "/" + resource.name() + " twice").isNull();
        }
        return parsed;
    }

    /**
     * fabric8's model keeps a field it does not know in {@code additionalProperties} instead of failing; any entry
     * there is a field the API does not have at that place.
     */
    static void unknownFields(Object value, String path, List<String> found) {
        if (value == null) {
            return;
        }
        if (value instanceof Collection<?> list) {
            int i = 0;
            for (Object element : list) {
                unknownFields(element, path + "[" + i++ + "]", found);
            }
            return;
        }
        if (value instanceof Map<?, ?> map) {
            map.forEach((k, v) -> unknownFields(v, path + "." + k, found));
            return;
        }
        if (!value.getClass().getPackageName().startsWith("io.fabric8")) {
            return;
        }
        for (Method getter : value.getClass().getMethods()) {
            if (getter.getParameterCount() != 0 || !getter.getName().startsWith("get")
                    || getter.getDeclaringClass() == Object.class) {
                continue;
            }
            Object field;
            try {
                field = getter.invoke(value);
            } catch (IllegalAccessException | InvocationTargetException e) {
                continue;
            }
            if (getter.getName().equals("getAdditionalProperties")) {
                if (field instanceof Map<?, ?> extra && !extra.isEmpty()) {
                    found.add(path + ": " + extra.keySet());
                }
            } else {
                unknownFields(field, path + "." + getter.getName().substring(3), found);
            }
        }
    }
}

package io.lanemq.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lanemq.config.ClusterConfig;
import io.lanemq.config.ConfigSources;
import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.TopicRoute;
import io.lanemq.service.http.ServiceEndpoints;
import io.lanemq.testkit.RocketMqStack;
import io.lanemq.testkit.StackSpec;
import io.lanemq.testkit.tls.SelfSignedCertificate;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each service of deploy/kubernetes started on this machine with exactly the args and env its manifest gives it
 * (read through the fabric8 model), against one local dual-IDC stack: the built image run as its pod would run it
 * (see {@link LocalPod}: only cluster addresses, ports and volume contents are this machine's), all three at once.
 * Each must answer {@code /livez}, reach SERVING on {@code /readyz}, serve its own meters on {@code /metrics}, and on
 * SIGTERM drain (its "stopped gracefully" line) and exit within its pod's terminationGracePeriodSeconds.
 *
 * <p>The ConfigMap is the base's own platform.yaml with its name servers replaced by the stack's (the same table
 * rewrites the dial test's {@code --name-servers}); the topics it routes to are created on the stack first, as an
 * operator creates them. Secrets get test values: a self-signed key store, a token, an ack secret.
 */
class ManifestServicesIT {
    /** What each service must show: meters of its own in its scrape, and the line its stop logs once it drained. */
    private record Expected(List<String> meters, Pattern drained) {
    }

    // Each service's own last line of its drain, not service-http's "stopped gracefully": the proxy's races Spring
    // Boot's shutdown hook, which stops logging as the context closes, and the dial test logs only its own package
    // at INFO; its evidence is the summary it prints once the outstanding acks are in.
    private static final Map<ServiceArguments, Expected> EXPECTED = Map.of(
            ServiceArguments.CONSUMER_PROXY, new Expected(List.of("lanemq_proxy_"),
                    Pattern.compile("ConsumerProxyServer - consumer proxy \\S+ stopped")),
            ServiceArguments.DELAY_SERVER, new Expected(List.of("lanemq_delay_pending{cluster=\"cluster-a\"",
                    "lanemq_delay_pending{cluster=\"cluster-b\""), Pattern.compile("DelayServer - Delay server stopped")),
            ServiceArguments.DIAL_TEST, new Expected(List.of("lanemq_dialtest_probes_sent_total{"),
                    Pattern.compile("(?m)^OK: sent \\d+, acked \\d+, lost 0, ")));
    private static final Duration START_DEADLINE = Duration.ofSeconds(90);
    /** Each service's output, kept for a failure's reader (CI keeps target/). */
    private static final Path LOGS = Path.of("target", "manifest-services");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @TempDir
    Path dir;

    @Test
    void everyServiceRunsWithItsManifestsArgsAndEnvServesAndDrainsOnSigterm() throws Exception {
        long testStart = System.nanoTime();
        // Not the console: its manifest points at an etcd with TLS and a user, which this stack does not run.
        // KubernetesManifestsTest checks its manifest, ContainerImagesTest runs its image, ConsoleTlsIT/ConsoleApiIT it.
        List<Workload> workloads = Workload.ofBase().stream().filter(w -> w.service() != ServiceArguments.CONSOLE).toList();
        assertThat(workloads).extracting(Workload::service).containsExactlyInAnyOrderElementsOf(EXPECTED.keySet());
        Map<Workload, Optional<OciImage>> images = images(workloads);
        LocalPod.Mode mode = images.values().stream().allMatch(Optional::isPresent) ? LocalPod.Mode.IMAGE : LocalPod.Mode.JAR;

        List<LocalPod> pods = new ArrayList<>();
        try (RocketMqStack stack = RocketMqStack.start(StackSpec.dualIdc())) {
            Kustomization base = Kustomization.read(KubernetesManifestsTest.BASE);
            Map<String, String> addresses = localAddresses(base, stack);
            LocalPod.Sources sources = new LocalPod.Sources(configMaps(base, addresses), testSecrets());
            createRoutedTopics(sources, stack);
            for (Workload workload : workloads) {
                String name = workload.container().getName();
                LocalPod pod = new LocalPod(workload, mode, dir.resolve(name), Files.createDirectories(LOGS).resolve(name + ".log"),
                        addresses, sources);
                pods.add(pod);
                assertThat(String.join(" ", pod.args)).as(workload.owner() + ": no cluster-internal name left")
                        .doesNotContain(".svc");
            }
            long stackReady = System.nanoTime();
            for (LocalPod pod : pods) {
                pod.start(images.get(pod.workload));
                System.out.printf("[ManifestServicesIT] %s (%s): args %s, env %s%n", pod.workload.owner(), mode,
                        pod.args, pod.env.keySet());
            }
            Map<LocalPod, Long> servingAfterMs = awaitServing(pods, stackReady);

            for (LocalPod pod : pods) {
                URI http = pod.http("http");
                assertThat(get(http, ServiceEndpoints.LIVENESS_PATH).statusCode()).as(pod.workload.owner() + " /livez").isEqualTo(200);
                List<String> meters = EXPECTED.get(pod.workload.service()).meters();
                await(pod.workload.owner() + " serves its meters " + meters).atMost(Duration.ofSeconds(30))
                        .pollInterval(Duration.ofMillis(250)).until(() -> {
                            HttpResponse<String> scrape = get(http, ServiceEndpoints.METRICS_PATH);
                            return scrape.statusCode() == 200 && meters.stream().allMatch(scrape.body()::contains);
                        });
                String scrape = get(http, ServiceEndpoints.METRICS_PATH).body();
                long own = scrape.lines().filter(l -> l.startsWith("lanemq_")).count();
                long heap = maxHeap(scrape);
                System.out.printf("[ManifestServicesIT] %s: SERVING %d ms after start, %d lanemq_* series, max heap %d MiB%n",
                        pod.workload.owner(), servingAfterMs.get(pod), own, heap >> 20);
                if (mode == LocalPod.Mode.IMAGE) {
                    Optional<Long> limit = pod.memoryLimit();
                    if ("true".equals(System.getenv("CI"))) {
                        assertThat(limit).as(pod.workload.owner() + ": a memory cgroup of the manifest's limit").isPresent();
                    }
                    // The image's -XX:MaxRAMPercentage=70 applied to the container's limit, not to this machine's RAM.
                    limit.ifPresent(bytes -> assertThat(heap).as(pod.workload.owner() + " max heap against its memory limit "
                            + (bytes >> 20) + " MiB").isBetween(bytes * 6 / 10, bytes * 3 / 4));
                }
            }

            for (LocalPod pod : pods) {
                pod.terminate();
            }
            long sigterm = System.nanoTime();
            Map<LocalPod, Long> exitedAfterMs = new LinkedHashMap<>();
            try {
                await().atMost(Duration.ofSeconds(pods.stream().mapToLong(p -> p.workload.terminationGraceSeconds()).max().orElseThrow()))
                        .pollInterval(Duration.ofMillis(100)).until(() -> {
                            long now = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sigterm);
                            pods.stream().filter(pod -> !pod.alive()).forEach(pod -> exitedAfterMs.putIfAbsent(pod, now));
                            return exitedAfterMs.size() == pods.size();
                        });
            } catch (ConditionTimeoutException e) {
                // Reported below, per pod, with its output.
            }
            for (LocalPod pod : pods) {
                Long exited = exitedAfterMs.get(pod);
                assertThat(exited).as(pod.workload.owner() + " exited within terminationGracePeriodSeconds "
                        + pod.workload.terminationGraceSeconds() + " (then the kubelet's SIGKILL); output:\n" + tail(pod))
                        .isNotNull().isLessThan(TimeUnit.SECONDS.toMillis(pod.workload.terminationGraceSeconds()));
                assertThat(EXPECTED.get(pod.workload.service()).drained().matcher(pod.output()).find())
                        .as(pod.workload.owner() + " logged the end of its drain; output:\n" + tail(pod)).isTrue();
                System.out.printf("[ManifestServicesIT] %s: exit %d %d ms after SIGTERM (grace %d s)%n", pod.workload.owner(),
                        pod.exitCode(), exited, pod.workload.terminationGraceSeconds());
                if (pod.workload.service() == ServiceArguments.DIAL_TEST) {
                    assertThat(pod.exitCode()).as("the dial test exits 0 only when no probe was lost; output:\n" + tail(pod)).isZero();
                } else {
                    assertThat(pod.exitCode()).as(pod.workload.owner() + " exit after SIGTERM").isIn(0, 143);
                }
            }
        } finally {
            for (LocalPod pod : pods) {
                try {
                    pod.close();
                } catch (Exception e) {
                    // Never in place of the test's own failure.
                    System.err.println("[ManifestServicesIT] could not clean up " + pod.workload.owner() + ": " + e);
                }
            }
        }
        System.out.printf("[ManifestServicesIT] %s mode, %d ms in all%n", mode,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - testStart));
    }

    /** Polls every pod's /readyz together until each answered SERVING once; a pod that exits fails at once. */
    private static Map<LocalPod, Long> awaitServing(List<LocalPod> pods, long startNanos) {
        Map<LocalPod, Long> serving = new LinkedHashMap<>();
        Map<LocalPod, String> last = new LinkedHashMap<>();
        try {
            await().atMost(START_DEADLINE).pollInterval(Duration.ofMillis(200)).until(() -> {
                for (LocalPod pod : pods) {
                    if (serving.containsKey(pod)) {
                        continue;
                    }
                    if (!pod.alive()) {
                        throw new AssertionError(pod.workload.owner() + " exited before SERVING; output:\n" + tail(pod));
                    }
                    try {
                        HttpResponse<String> ready = get(pod.http("http"), ServiceEndpoints.READINESS_PATH);
                        last.put(pod, ready.statusCode() + " " + ready.body().strip());
                        if (ready.statusCode() == 200 && ready.body().startsWith("SERVING")) {
                            serving.put(pod, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos));
                        }
                    } catch (IOException e) {
                        last.put(pod, "not answering: " + e);
                    }
                }
                return serving.size() == pods.size();
            });
        } catch (ConditionTimeoutException e) {
            StringBuilder states = new StringBuilder();
            pods.stream().filter(pod -> !serving.containsKey(pod)).forEach(pod -> states.append("\n").append(pod.workload.owner())
                    .append(": /readyz ").append(last.get(pod)).append("; output:\n").append(tail(pod)));
            throw new AssertionError("not SERVING within " + START_DEADLINE + ":" + states, e);
        }
        return serving;
    }

    /** Each image's tar where it was built; under CI=true a missing tar, root or chroot fails the test. */
    private static Map<Workload, Optional<OciImage>> images(List<Workload> workloads) throws IOException {
        boolean ci = "true".equals(System.getenv("CI"));
        boolean root = "root".equals(System.getProperty("user.name"));
        boolean tools = Stream.of("/usr/bin/unshare", "/usr/sbin/chroot", "/usr/bin/mount").allMatch(p -> Files.isExecutable(Path.of(p)));
        if (ci) {
            assertTrue(root && tools, "running the images needs root, /usr/bin/unshare, /usr/sbin/chroot and /usr/bin/mount");
        }
        Map<Workload, Optional<OciImage>> images = new LinkedHashMap<>();
        for (Workload workload : workloads) {
            Path tar = ContainerImagesTest.Image.deployedAs(workload.image()).tar();
            if (ci) {
                assertTrue(Files.isRegularFile(tar), tar + " is missing: CI builds it (profile images)");
            }
            images.put(workload, root && tools && Files.isRegularFile(tar) ? Optional.of(OciImage.read(tar)) : Optional.empty());
        }
        return images;
    }

    /**
     * The substitution table: each cluster's name server as the base's platform.yaml names it (a cluster-internal
     * DNS name) becomes the local stack's name server of the same IDC.
     */
    private static Map<String, String> localAddresses(Kustomization base, RocketMqStack stack) throws Exception {
        Map<String, String> addresses = new LinkedHashMap<>();
        try (var source = ConfigSources.open("file:" + platformYaml(base))) {
            for (ClusterConfig cluster : source.load().clusters().values()) {
                addresses.put(cluster.nameServer(), stack.idc(cluster.idc()).nameServerAddress());
            }
        }
        return addresses;
    }

    private static Path platformYaml(Kustomization base) {
        return base.configMaps.stream().filter(c -> c.name().equals("lanemq-platform")).findFirst().orElseThrow()
                .files().get("platform.yaml");
    }

    /** Every generated ConfigMap's files, with the addresses replaced. */
    private static Map<String, Map<String, byte[]>> configMaps(Kustomization base, Map<String, String> addresses) throws IOException {
        Map<String, Map<String, byte[]>> configMaps = new LinkedHashMap<>();
        for (Kustomization.GeneratedConfigMap configMap : base.configMaps) {
            Map<String, byte[]> files = new LinkedHashMap<>();
            for (Map.Entry<String, Path> file : configMap.files().entrySet()) {
                String text = Files.readString(file.getValue());
                for (Map.Entry<String, String> address : addresses.entrySet()) {
                    text = text.replace(address.getKey(), address.getValue());
                }
                files.put(file.getKey(), text.getBytes(StandardCharsets.UTF_8));
            }
            configMaps.put(configMap.name(), files);
        }
        return configMaps;
    }

    /** Test values for every key of secrets.example.yaml (KubernetesManifestsTest checks the pods use no other). */
    private static Map<String, Map<String, byte[]>> testSecrets() throws IOException {
        SelfSignedCertificate certificate = SelfSignedCertificate.shared();
        byte[] random = new byte[32];
        new SecureRandom().nextBytes(random);
        String hex = HexFormat.of().formatHex(random);
        return Map.of(
                "lanemq-proxy-tls", Map.of("proxy.p12", Files.readAllBytes(certificate.keyStore()),
                        "keystore-password", new String(certificate.password()).getBytes(StandardCharsets.UTF_8)),
                "lanemq-proxy-tokens", Map.of("tokens.properties", ("manifest-test=" + hex.substring(0, 24) + "\n")
                        .getBytes(StandardCharsets.UTF_8)),
                "lanemq-dialtest", Map.of("ack-secret", hex.getBytes(StandardCharsets.UTF_8)));
    }

    /** The physical topics the configuration routes to and its internal delay topic, on every cluster. */
    private void createRoutedTopics(LocalPod.Sources sources, RocketMqStack stack) throws Exception {
        Path platform = Files.write(dir.resolve("platform.yaml"), sources.configMaps().get("lanemq-platform").get("platform.yaml"));
        PlatformConfig config;
        try (var source = ConfigSources.open("file:" + platform)) {
            config = source.load();
        }
        for (LogicTopicConfig topic : config.topics().values()) {
            for (TopicRoute route : topic.routes()) {
                stack.createTopic(route.cluster(), route.physicalTopic(), 4);
            }
        }
        for (String cluster : config.clusters().keySet()) {
            stack.createTopic(cluster, config.delay().internalTopic(), 4);
        }
    }

    /** The heap's maximum as the JVM reports it: the sum over heap pools that have one. */
    private static long maxHeap(String scrape) {
        return scrape.lines().filter(l -> l.startsWith("jvm_memory_max_bytes{") && l.contains("area=\"heap\""))
                .mapToLong(l -> (long) Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).filter(v -> v > 0).sum();
    }

    private static HttpResponse<String> get(URI base, String path) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String tail(LocalPod pod) {
        List<String> lines = pod.output().lines().toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
    }
}

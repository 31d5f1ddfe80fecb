package io.lanemq.delay.server;

import io.lanemq.service.http.JvmMeters;
import io.lanemq.service.http.Readiness;
import io.lanemq.core.client.ConfigStaleness;
import io.lanemq.core.client.CoreMessagingClient;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.service.http.ServiceEndpoints;
import io.lanemq.api.ClientOptions;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.MessagingException;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.config.ClusterConfig;
import io.lanemq.config.ConfigSource;
import io.lanemq.config.ConfigSources;
import io.lanemq.config.DelayConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.delay.DelayEngine;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.lanemq.support.Clocks;
import io.lanemq.support.attach.AttachPolicy;
import io.lanemq.support.attach.AttemptBudget;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The delay server: one {@link ClusterDelayService} per cluster of the platform configuration,
 * delivering through one SDK producer on the same configuration, plus the operations endpoints
 * ({@code /livez}, {@code /readyz}, {@code /metrics}: service-http's convention). Readiness is
 * STARTING until the clients run, CATCHING_UP while each cluster's store recovers and its reader
 * starts from the committed offsets, then SERVING while every cluster's store takes writes and its
 * internal topic is read, or attached in the background, and DRAINING from the first moment of {@link #close()}.
 *
 * <p>A cluster that is down or silent at the start holds up neither the start nor the other clusters: the start waits
 * {@link AttachPolicy#startWait()} at most for every cluster's first answer, serves those that answered, and reads the
 * others from the moment they answer (jittered retries within an attempt budget, counted in
 * {@code lanemq.consumer.attach.attempts}; {@code /readyz} names the cluster not read and why).
 *
 * <p>Several servers may run with the same configuration: each cluster's internal topic is read
 * by the consumer group {@code delay.serverGroup}, which spreads its queues over them; a queue
 * whose server dies (or loses its disk) is re-read by the next owner from its committed offset.
 * Thread-safe to close from a shutdown hook. Clusters added to the configuration later need a
 * restart (the server reads the configuration once).
 *
 * <pre>{@code
 * try (DelayServer server = DelayServer.start(DelayServerOptions.builder("file:/etc/lanemq/platform.yaml",
 *         Path.of("/var/lib/lanemq/delay")).build())) {
 *     server.awaitShutdown();
 * }
 * }</pre>
 */
public final class DelayServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(DelayServer.class);
    /** Each attempt asks the name server first (the reader's route check), so it fails within a second while silent. */
    private static final AttachPolicy ATTACH = AttachPolicy.QUICKLY_FAILING;

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Map<String, ClusterDelayService> clusters = new LinkedHashMap<>();
    private final Readiness readiness = Readiness.withChecks(this::clusterChecks);
    private AutoCloseable jvmMeters;
    private volatile MessagingClient client;
    private Producer producer;
    private ServiceEndpoints http;
    private boolean closed;
    /** The clocks of every cluster's service and store. */
    private final Clocks clocks;

    private DelayServer(Clocks clocks) {
        this.clocks = clocks;
    }

    /**
     * Reads the platform configuration, opens (recovering) every cluster's store, starts reading
     * every internal topic and serves the endpoints.
     *
     * @throws MessagingException the configuration cannot be read, a store cannot be opened or a client cannot start
     */
    public static DelayServer start(DelayServerOptions settings) throws MessagingException {
        return start(settings, Clocks.system());
    }

    /** As above, on the given clocks: what a test injects to advance the server's time instead of waiting for it. */
    static DelayServer start(DelayServerOptions settings, Clocks clocks) throws MessagingException {
        DelayServer server = new DelayServer(java.util.Objects.requireNonNull(clocks, "clocks"));
        try {
            server.open(settings);
            return server;
        } catch (MessagingException | RuntimeException e) {
            server.close();
            throw e;
        } catch (Exception e) {
            server.close();
            throw new io.lanemq.api.InvalidConfigurationException("delay server could not start: " + e.getMessage(), e);
        }
    }

    private void open(DelayServerOptions base) throws Exception {
        jvmMeters = JvmMeters.bindTo(registry);
        // Served first, so a kubelet sees the process alive (and not ready) through a long store recovery.
        if (base.metricsPort() >= 0) {
            http = ServiceEndpoints.start("lanemq-delay-http",
                    new InetSocketAddress(base.bindAddress(), base.metricsPort()), registry, readiness);
        }
        PlatformConfig platform;
        try (ConfigSource source = ConfigSources.open(base.configLocation())) {
            platform = source.load();
        }
        DelayConfig delay = platform.delay();
        // The group on the brokers carries the environment's suffix, as every consumer group does.
        DelayServerOptions settings = base.withInternalTopic(delay.internalTopic(), platform.physicalGroup(delay.serverGroup()));
        // The client reports to this server's registry: its producer's failovers and send latencies are the
        // deliveries', and its configuration gauges (stale, revision) carry the SDK's names, so one dashboard shows
        // clients and services alike.
        client = CoreMessagingClient.start(ClientOptions.builder("lanemq-delay-server")
                .configLocation(settings.configLocation()).build(), registry);
        // The client's tags (application, environment): Prometheus wants one set of tag keys per meter name.
        SdkMetrics sdkMetrics = new SdkMetrics(registry, "lanemq-delay-server", ConfigSources.deploymentEnvironment());
        producer = client.createProducer(ProducerOptions.defaults());
        // Distinct per server process and per cluster: RocketMQ shares one client instance per name, and one
        // instance cannot talk to two clusters' name servers.
        String instance = "lanemq-delay-" + UUID.randomUUID().toString().substring(0, 8);
        readiness.catchingUp();
        AttemptBudget budget = new AttemptBudget(ATTACH, clocks.ticker());
        for (ClusterConfig cluster : platform.clusters().values()) {
            ClusterDelayService service = new ClusterDelayService(cluster, settings, producer,
                    new DelayServerMetrics(registry, cluster.name()), instance, clocks);
            clusters.put(cluster.name(), service);
            service.start(ATTACH, budget, sdkMetrics.attachOutcomes(settings.serverGroup(), cluster.name()));
        }
        // The clusters are attached side by side; those that have not answered by then are read when they do. On
        // System.nanoTime, not the injected ticker: this deadline bounds the real blocking waits below.
        long deadline = System.nanoTime() + ATTACH.startWait().toNanos();
        for (ClusterDelayService service : clusters.values()) {
            service.awaitFirstAnswer(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
        }
        readiness.serving();
        log.info("Delay server ready: clusters {}, internal topic {}, group {}, store {}, endpoints {}",
                clusters.keySet(), settings.internalTopic(), settings.serverGroup(), settings.storeDir(),
                http == null ? "off" : settings.bindAddress() + ":" + http.address().getPort());
    }

    /** The readiness {@code /readyz} reports; SIGTERM handling marks it draining before {@link #close()}. */
    public Readiness readiness() {
        return readiness;
    }

    private ServiceEndpoints.Health clusterChecks() {
        List<String> lines = new ArrayList<>();
        boolean up = !clusters.isEmpty();
        for (ClusterDelayService service : clusters.values()) {
            up &= service.healthy();
            lines.add(service.describeHealth());
        }
        MessagingClient running = client;
        if (running != null) {
            // Informational: on a local snapshot (etcd unreachable at start) the server serves, and says so.
            lines.add(ConfigStaleness.describe(running.health().configuration()));
        }
        return new ServiceEndpoints.Health(up, String.join("\n", lines));
    }

    /** The HTTP port, or -1 when not served. */
    public int httpPort() {
        return http == null ? -1 : http.address().getPort();
    }

    /** For tests and tools: the engine holding a cluster's records. */
    public DelayEngine engine(String cluster) {
        ClusterDelayService service = clusters.get(cluster);
        if (service == null) {
            throw new IllegalArgumentException("no cluster '" + cluster + "'; this server runs " + clusters.keySet());
        }
        return service.engine();
    }

    public PrometheusMeterRegistry registry() {
        return registry;
    }

    /**
     * Stops reading every internal topic, lets deliveries under way finish, commits what is safe,
     * then closes the producer and the endpoints. Idempotent.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        readiness.draining();
        clusters.values().forEach(ClusterDelayService::close);
        if (producer != null) {
            producer.close();
        }
        if (client != null) {
            client.close();
        }
        if (http != null) {
            http.close();
        }
        if (jvmMeters != null) {
            try {
                jvmMeters.close();
            } catch (Exception e) {
                log.warn("could not stop the JVM meters: {}", e.getMessage());
            }
        }
        log.info("Delay server stopped");
    }
}

package io.lanemq.api;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a {@link MessagingClient} needs to start: who the application is and where the platform
 * configuration lives. Immutable; build it with {@link #builder(String)}.
 *
 * <p>{@code configLocation} is a URI: {@code file:/path/platform.yaml} (a watched local file) or a
 * config-centre URI understood by the SDK core. A plain path is read as a file.
 *
 * <p>{@code proxyToken} is the application's secret for the consumer proxy: consumer groups that the
 * platform puts in PROXY mode authenticate with the application name and this token. It is a
 * secret, so it comes from the application's own secret store, never from the platform
 * configuration, and {@link #toString()} does not show it.
 *
 * <p>{@code environment} is the platform environment this instance runs in ({@code prod}, {@code staging}, as the
 * platform configuration names them): which routes, clusters and physical topics its logic topics resolve to.
 * It belongs to the deployment, not the code: when not set here it is read from the system property
 * {@code lanemq.environment}, then the environment variable {@code LANEMQ_ENVIRONMENT}, and is otherwise the
 * configuration's top level ({@code default}).
 *
 * <p>{@code requireClusterWithin} is for a team that prefers a failed start to a client running on no cluster. By
 * default a client starts whatever is reachable: a cluster that is down or silent at start is attached in the
 * background when it answers, and until then its consumers wait and its sends go to the other clusters.
 *
 * <pre>{@code
 * ClientOptions options = ClientOptions.builder("billing")
 *         .configLocation("file:/etc/lanemq/platform.yaml")
 *         .proxyToken(System.getenv("LANEMQ_PROXY_TOKEN"))
 *         .build();
 * }</pre>
 */
public final class ClientOptions {
    private final String applicationName;
    private final String configLocation;
    private final Map<String, String> properties;
    private final String proxyToken;
    private final LaneOptions lanes;
    private final String environment;
    private final Duration requireClusterWithin;
    private final Path configSnapshotDirectory;
    private final boolean configSnapshots;
    private final String instanceId;

    private ClientOptions(Builder builder) {
        this.instanceId = builder.instanceId;
        this.requireClusterWithin = builder.requireClusterWithin;
        this.configSnapshotDirectory = builder.configSnapshotDirectory;
        this.configSnapshots = builder.configSnapshots;
        this.applicationName = builder.applicationName;
        this.configLocation = builder.configLocation;
        this.properties = Collections.unmodifiableMap(new LinkedHashMap<>(builder.properties));
        this.proxyToken = builder.proxyToken;
        this.lanes = builder.lanes;
        this.environment = builder.environment;
    }

    public static Builder builder(String applicationName) {
        return new Builder(applicationName);
    }

    public String applicationName() {
        return applicationName;
    }

    public String configLocation() {
        return configLocation;
    }

    /**
     * Binding tuning for this application's clients, laid over every cluster's endpoint properties from the
     * platform configuration (this value wins for a key both set), e.g. {@code rocketmq.pullBatchSize}. A key with
     * the binding's prefix that the binding does not know fails the producer or consumer naming it; keys of other
     * bindings are ignored.
     */
    public Map<String, String> properties() {
        return properties;
    }

    /** The application's token for the consumer proxy; empty when none was given (PROXY-mode groups then cannot consume). */
    public Optional<String> proxyToken() {
        return Optional.ofNullable(proxyToken);
    }

    /** How this instance takes part in lanes; empty when it does not (see {@link LaneOptions}). */
    public Optional<LaneOptions> lanes() {
        return Optional.ofNullable(lanes);
    }

    /** The platform environment given here; empty: chosen by the deployment (see the class comment). */
    public Optional<String> environment() {
        return Optional.ofNullable(environment);
    }

    /**
     * When set, starting the client fails unless one of its clusters answers within this time (a connection to one of
     * its name servers), and a subscription fails unless it attaches to one cluster within it; empty (the default):
     * the client and its subscriptions start on no cluster at all and attach them as they become reachable.
     */
    public Optional<Duration> requireClusterWithin() {
        return Optional.ofNullable(requireClusterWithin);
    }

    /**
     * Where the client keeps its local snapshot of the configuration a config centre (etcd) gave it, to start from
     * when the centre is unreachable; empty: the deployment's choice (system property
     * {@code lanemq.config.snapshot-dir}, else environment variable {@code LANEMQ_CONFIG_SNAPSHOT_DIR}, else
     * {@code <java.io.tmpdir>/lanemq-snapshots-<user>}). Ignored when {@link #configSnapshots()} is false.
     */
    public Optional<Path> configSnapshotDirectory() {
        return Optional.ofNullable(configSnapshotDirectory);
    }

    /**
     * This instance's id, as a canary of the platform configuration chooses instances by it (by name, or a stable hash
     * for a percentage); empty: the deployment's, the environment variable {@code HOSTNAME} (on Kubernetes the pod
     * name), else the host's name. Processes sharing a host need their own.
     */
    public Optional<String> instanceId() {
        return Optional.ofNullable(instanceId);
    }

    /** Whether the client keeps configuration snapshots (true unless turned off with {@link Builder#noConfigSnapshots()}). */
    public boolean configSnapshots() {
        return configSnapshots;
    }

    @Override
    public String toString() {
        return "ClientOptions[applicationName=" + applicationName + ", configLocation=" + configLocation
                + (environment == null ? "" : ", environment=" + environment) + ", proxyToken=" + (proxyToken == null ? "none" : "(set)") + ", lanes=" + (lanes == null ? "off" : lanes) + "]";
    }

    /** Builds {@link ClientOptions}; not thread-safe. */
    public static final class Builder {
        private final String applicationName;
        private String configLocation;
        private final Map<String, String> properties = new LinkedHashMap<>();
        private String proxyToken;
        private LaneOptions lanes;
        private String environment;
        private Duration requireClusterWithin;
        private Path configSnapshotDirectory;
        private boolean configSnapshots = true;
        private String instanceId;

        private Builder(String applicationName) {
            this.applicationName = Names.requireName("applicationName", applicationName);
        }

        public Builder configLocation(String configLocation) {
            this.configLocation = Names.requireText("configLocation", configLocation);
            return this;
        }

        public Builder property(String name, String value) {
            Names.requireText("property name", name);
            properties.put(name, Names.requireText("property '" + name + "'", value));
            return this;
        }

        /** The application's secret token for the consumer proxy (used only by consumer groups in PROXY mode). */
        public Builder proxyToken(String token) {
            // Sent as an HTTP/2 header: visible ASCII only. The message never quotes the token, which is a secret.
            if (token == null || token.isEmpty() || !token.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
                throw new IllegalArgumentException("proxyToken must be non-empty visible ASCII without spaces [applicationName="
                        + applicationName + "]");
            }
            this.proxyToken = token;
            return this;
        }

        /** Takes part in lanes: runs in {@code lanes.lane()} and serves forwarded messages of it. */
        public Builder lanes(LaneOptions lanes) {
            this.lanes = Objects.requireNonNull(lanes, "lanes");
            return this;
        }

        /** The platform environment, for a deployment that sets it in code; usually left to the deployment's variables. */
        public Builder environment(String environment) {
            this.environment = Names.requireName("environment", environment);
            return this;
        }

        /**
         * Fails the start unless a cluster answers within {@code within} (see {@link ClientOptions#requireClusterWithin()});
         * positive, at most an hour.
         */
        public Builder requireClusterWithin(Duration within) {
            Objects.requireNonNull(within, "requireClusterWithin");
            if (within.isNegative() || within.isZero() || within.compareTo(Duration.ofHours(1)) > 0) {
                throw new IllegalArgumentException("requireClusterWithin must be positive and at most an hour, was " + within
                        + " [applicationName=" + applicationName + "]");
            }
            this.requireClusterWithin = within;
            return this;
        }

        /**
         * Keeps the configuration snapshot in {@code directory} (created owner-only when absent); on Kubernetes, a
         * volume mounted there lets a restarted container start while etcd is unreachable.
         */
        public Builder configSnapshotDirectory(Path directory) {
            this.configSnapshotDirectory = Objects.requireNonNull(directory, "configSnapshotDirectory");
            return this;
        }

        /** This instance's id (see {@link ClientOptions#instanceId()}); usually left to the deployment. */
        public Builder instanceId(String instanceId) {
            this.instanceId = Names.requireText("instanceId", instanceId);
            return this;
        }

        /** Keeps no configuration snapshot: a client started while etcd is unreachable then fails to start. */
        public Builder noConfigSnapshots() {
            this.configSnapshots = false;
            return this;
        }

        public ClientOptions build() {
            if (!configSnapshots && configSnapshotDirectory != null) {
                throw new IllegalStateException("configSnapshotDirectory is set but configuration snapshots are off [applicationName="
                        + applicationName + "]");
            }
            if (configLocation == null) {
                throw new IllegalStateException("configLocation is required [applicationName=" + applicationName + "]");
            }
            return new ClientOptions(this);
        }
    }
}

package io.lanemq.spring;

import io.lanemq.api.ClientOptions;
import io.lanemq.api.LaneOptions;
import io.lanemq.api.ProducerOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code lanemq.*} properties: what {@link ClientOptions} and {@link ProducerOptions} hold, bound
 * from the application's environment. Spring binds into this mutable holder; {@link #clientOptions()}
 * and {@link #producerOptions()} turn it into the SDK's immutable, validated options, and an invalid
 * value fails with an {@link InvalidLaneMqPropertyException} naming the property.
 *
 * <pre>{@code
 * lanemq.application-name=checkout
 * lanemq.config-location=file:/etc/lanemq/platform.yaml
 * lanemq.proxy-token=${LANEMQ_PROXY_TOKEN:}
 * lanemq.lanes.enabled=true                  # lanemq.lanes.*: this instance's lane and forwarding endpoint
 * lanemq.lanes.lane=${LANE:}
 * }</pre>
 */
@ConfigurationProperties(prefix = LaneMqProperties.PREFIX)
public class LaneMqProperties {
    public static final String PREFIX = "lanemq";

    /** Whether the starter creates any LaneMQ bean at all. */
    private boolean enabled = true;

    /** The name the application is known by to the platform (also the default producer group prefix). */
    private String applicationName;

    /** Where the platform configuration lives: file:/path/platform.yaml (watched) or etcd://host:2379,host2:2379/key?cacert=/etc/lanemq/etcd-ca.pem (TLS and
     * authentication settings: sdk/platform-config/README.md, etcd locations; plaintext only to a loopback etcd). */
    private String configLocation;

    /** The application's secret for the consumer proxy, needed only by consumer groups in PROXY mode. */
    private String proxyToken;

    /** Extra settings for the SDK core or its RocketMQ binding; unknown names are ignored. */
    private Map<String, String> properties = new LinkedHashMap<>();

    private final Producer producer = new Producer();

    private final Lanes lanes = new Lanes();

    private final Context context = new Context();

    private final Startup startup = new Startup();
    private final RetryProperties retry = new RetryProperties();
    private final ConfigSnapshot configSnapshot = new ConfigSnapshot();

    /** The SDK's client options; every problem names the property it comes from. */
    public ClientOptions clientOptions() {
        if (applicationName == null || applicationName.isBlank()) {
            throw new InvalidLaneMqPropertyException(PREFIX + ".application-name",
                    "is required: the name this application is known by to the LaneMQ platform");
        }
        ClientOptions.Builder builder = checked(PREFIX + ".application-name", () -> ClientOptions.builder(applicationName));
        if (configLocation == null || configLocation.isBlank()) {
            throw new InvalidLaneMqPropertyException(PREFIX + ".config-location",
                    "is required: file:/path/platform.yaml or etcd://host:2379/key [application-name=" + applicationName + "]");
        }
        checked(PREFIX + ".config-location", () -> builder.configLocation(configLocation));
        if (proxyToken != null && !proxyToken.isEmpty()) {
            checked(PREFIX + ".proxy-token", () -> builder.proxyToken(proxyToken));
        }
        properties.forEach((name, value) -> checked(PREFIX + ".properties." + name, () -> builder.property(name, value)));
        if (lanes.enabled) {
            builder.lanes(lanes.laneOptions());
        }
        if (startup.requireClusterWithin != null) {
            checked(PREFIX + ".startup.require-cluster-within", () -> builder.requireClusterWithin(startup.requireClusterWithin));
        }
        if (!configSnapshot.enabled) {
            builder.noConfigSnapshots();
        } else if (configSnapshot.directory != null && !configSnapshot.directory.isBlank()) {
            checked(PREFIX + ".config-snapshot.directory", () -> builder.configSnapshotDirectory(Path.of(configSnapshot.directory.strip())));
        }
        return builder.build();
    }

    /** The producer's options: {@link ProducerOptions#defaults()} unless {@code lanemq.producer.group} is set. */
    public ProducerOptions producerOptions() {
        if (producer.group == null) {
            return ProducerOptions.defaults();
        }
        return checked(PREFIX + ".producer.group", () -> ProducerOptions.builder().producerGroup(producer.group)).build();
    }

    /** Runs a builder step, naming the property in its error (the SDK names only its own field). */
    private static <T> T checked(String property, Supplier<T> step) {
        try {
            return step.get();
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new InvalidLaneMqPropertyException(property, e.getMessage(), e);
        }
    }

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public String getApplicationName() {
        return applicationName;
    }

    public void setApplicationName(String applicationName) {
        this.applicationName = applicationName;
    }

    public String getConfigLocation() {
        return configLocation;
    }

    public void setConfigLocation(String configLocation) {
        this.configLocation = configLocation;
    }

    public String getProxyToken() {
        return proxyToken;
    }

    public void setProxyToken(String proxyToken) {
        this.proxyToken = proxyToken;
    }

    public Map<String, String> getProperties() {
        return properties;
    }

    public void setProperties(Map<String, String> properties) {
        this.properties = properties;
    }

    public Producer getProducer() {
        return producer;
    }

    public Lanes getLanes() {
        return lanes;
    }

    public Context getContext() {
        return context;
    }

    public Startup getStartup() {
        return startup;
    }

    /**
     * {@code lanemq.startup.*}: how the application starts while clusters are unreachable. By default it starts on
     * whatever answers (listeners consume the reachable clusters at once and attach the others when they return;
     * health shows them DOWN meanwhile).
     */
    public static class Startup {
        /**
         * When set (e.g. {@code 30s}), the application fails to start unless a cluster answers within it, and a
         * listener's subscription fails unless it attaches to a cluster within it. Unset: no such requirement.
         */
        private java.time.Duration requireClusterWithin;

        public java.time.Duration getRequireClusterWithin() {
            return requireClusterWithin;
        }

        public void setRequireClusterWithin(java.time.Duration requireClusterWithin) {
            this.requireClusterWithin = requireClusterWithin;
        }
    }

    /** {@code lanemq.retry.*}: the failures no listener retries. */
    public RetryProperties getRetry() {
        return retry;
    }

    public ConfigSnapshot getConfigSnapshot() {
        return configSnapshot;
    }

    /**
     * {@code lanemq.config-snapshot.*}: the local snapshot of the configuration an etcd location gave, from which the
     * application starts while etcd is unreachable.
     */
    public static class ConfigSnapshot {
        /** Whether to keep a snapshot; off, a start while etcd is unreachable fails. */
        private boolean enabled = true;

        /**
         * The directory (created owner-only); unset: the system property lanemq.config.snapshot-dir, else the environment
         * variable LANEMQ_CONFIG_SNAPSHOT_DIR, else java.io.tmpdir/lanemq-snapshots-{user}. On Kubernetes, a mounted volume.
         */
        private String directory;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public String getDirectory() {
            return directory;
        }

        public void setDirectory(String directory) {
            this.directory = directory;
        }
    }

    /** {@code lanemq.producer.*}: the auto-configured {@link io.lanemq.api.Producer}. */
    public static class Producer {
        /** Whether to create a Producer bean. */
        private boolean enabled = true;

        /** The producer group; unset means "{application-name}-producer". */
        private String group;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public String getGroup() {
            return group;
        }

        public void setGroup(String group) {
            this.group = group;
        }
    }

    /**
     * {@code lanemq.lanes.*}: the {@link LaneOptions} of this instance, when {@code enabled}. Then the client runs
     * in {@code lane} (empty: the base) and serves a TLS forwarding endpoint; the TLS files and the token are
     * required. Unset optional values keep the SDK's defaults.
     */
    public static class Lanes {
        private static final String LANES = PREFIX + ".lanes";

        /** Whether this instance takes part in lanes (runs in a lane and serves a forwarding endpoint). */
        private boolean enabled;

        /** The lane path this instance runs in, such as A or A.X; empty means the base. */
        private String lane = "";

        /** The address the forwarding endpoint binds. */
        private String listenHost = "127.0.0.1";

        /** The port the forwarding endpoint binds; 0 picks a free one. */
        private int listenPort;

        /** The host other instances reach the endpoint at (empty: the listen host); required when listening on a wildcard address. */
        private String advertisedHost;

        /** PEM file: the endpoint's certificate chain. */
        private String certificateChain;

        /** PEM file: the endpoint's private key (unencrypted PKCS#8). */
        private String privateKey;

        /** PEM file: the certificates a forwarder trusts for other instances' endpoints. */
        private String trustedCertificates;

        /** The platform's forwarding secret (at least 16 visible ASCII characters); from a secret store, never logged. */
        private String token;

        /** How long a forwarder waits for the lane's listener before the message is retried later (SDK default 30s). */
        private Duration forwardTimeout;

        /** Threads that run forwarded messages through this instance's listeners (SDK default 8). */
        private Integer serverThreads;

        /** How often the live members of a group and their lanes are read again (SDK default 2s). */
        private Duration membershipRefresh;

        /** The SDK's lane options; every problem names the property it comes from. */
        LaneOptions laneOptions() {
            LaneOptions.Builder builder = LaneOptions.builder();
            checked(LANES + ".lane", () -> builder.lane(lane));
            // listen(host, port) checks both: the host first with a valid port, so each error names its own property.
            checked(LANES + ".listen-host", () -> builder.listen(listenHost, 0));
            checked(LANES + ".listen-port", () -> builder.listen(listenHost, listenPort));
            if (advertisedHost != null && !advertisedHost.isEmpty()) {   // empty, as from ${POD_IP:}: the listen host
                checked(LANES + ".advertised-host", () -> builder.advertisedHost(advertisedHost));
            }
            builder.tls(readableFile("certificate-chain", certificateChain), readableFile("private-key", privateKey),
                    readableFile("trusted-certificates", trustedCertificates));
            if (token == null || token.isEmpty()) {
                throw new InvalidLaneMqPropertyException(LANES + ".token",
                        "is required when " + LANES + ".enabled=true: the platform's lane forwarding secret");
            }
            checked(LANES + ".token", () -> builder.token(token));
            if (forwardTimeout != null) {
                checked(LANES + ".forward-timeout", () -> builder.forwardTimeout(forwardTimeout));
            }
            if (serverThreads != null) {
                checked(LANES + ".server-threads", () -> builder.serverThreads(serverThreads));
            }
            if (membershipRefresh != null) {
                checked(LANES + ".membership-refresh", () -> builder.membershipRefresh(membershipRefresh));
            }
            // What build() still refuses is a wildcard listen address with no advertised host.
            return checked(LANES + ".advertised-host", builder::build);
        }

        /** The SDK reads the TLS files only when the endpoint starts; checked here, a missing one names its property. */
        private static Path readableFile(String property, String location) {
            String name = LANES + "." + property;
            if (location == null || location.isBlank()) {
                throw new InvalidLaneMqPropertyException(name, "is required when " + LANES + ".enabled=true: a PEM file");
            }
            Path path = checked(name, () -> Path.of(location));
            if (!Files.isReadable(path) || Files.isDirectory(path)) {
                throw new InvalidLaneMqPropertyException(name, "'" + location + "' is not a readable file");
            }
            return path;
        }

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public String getLane() {
            return lane;
        }

        public void setLane(String lane) {
            this.lane = lane;
        }

        public String getListenHost() {
            return listenHost;
        }

        public void setListenHost(String listenHost) {
            this.listenHost = listenHost;
        }

        public int getListenPort() {
            return listenPort;
        }

        public void setListenPort(int listenPort) {
            this.listenPort = listenPort;
        }

        public String getAdvertisedHost() {
            return advertisedHost;
        }

        public void setAdvertisedHost(String advertisedHost) {
            this.advertisedHost = advertisedHost;
        }

        public String getCertificateChain() {
            return certificateChain;
        }

        public void setCertificateChain(String certificateChain) {
            this.certificateChain = certificateChain;
        }

        public String getPrivateKey() {
            return privateKey;
        }

        public void setPrivateKey(String privateKey) {
            this.privateKey = privateKey;
        }

        public String getTrustedCertificates() {
            return trustedCertificates;
        }

        public void setTrustedCertificates(String trustedCertificates) {
            this.trustedCertificates = trustedCertificates;
        }

        public String getToken() {
            return token;
        }

        public void setToken(String token) {
            this.token = token;
        }

        public Duration getForwardTimeout() {
            return forwardTimeout;
        }

        public void setForwardTimeout(Duration forwardTimeout) {
            this.forwardTimeout = forwardTimeout;
        }

        public Integer getServerThreads() {
            return serverThreads;
        }

        public void setServerThreads(Integer serverThreads) {
            this.serverThreads = serverThreads;
        }

        public Duration getMembershipRefresh() {
            return membershipRefresh;
        }

        public void setMembershipRefresh(Duration membershipRefresh) {
            this.membershipRefresh = membershipRefresh;
        }

        @Override
        public String toString() {
            // The token is a secret: never shown.
            return enabled ? "[lane=" + (lane == null || lane.isEmpty() ? "base" : lane) + ", listen=" + listenHost + ":" + listenPort
                    + ", token=" + (token == null || token.isEmpty() ? "none" : "(set)") + "]" : "off";
        }
    }

    /**
     * {@code lanemq.context.*}: in a servlet web application, each request runs in the {@link io.lanemq.api.MessageContext}
     * its headers name, so what it sends is stamped with the caller's lane and stress-test mark.
     */
    public static class Context {
        private static final String CONTEXT = PREFIX + ".context";

        /** Whether requests run in the message context of their headers (servlet web applications only). */
        private boolean enabled = true;

        /** The request header holding the lane path; absent means the base. */
        private String laneHeader = "X-LaneMQ-Lane";

        /** The request header marking stress-test traffic with the value true. */
        private String stressTestHeader = "X-LaneMQ-Stress-Test";

        /** The header names, checked: each problem names its property. */
        ContextHeaders headers() {
            String lane = headerName("lane-header", laneHeader);
            String stressTest = headerName("stress-test-header", stressTestHeader);
            if (lane.equalsIgnoreCase(stressTest)) {
                throw new InvalidLaneMqPropertyException(CONTEXT + ".stress-test-header",
                        "must differ from " + CONTEXT + ".lane-header, but both are '" + lane + "'");
            }
            return new ContextHeaders(lane, stressTest);
        }

        private static String headerName(String property, String name) {
            if (name == null || !ContextHeaders.isHeaderName(name)) {
                throw new InvalidLaneMqPropertyException(CONTEXT + "." + property,
                        "must be an HTTP header name (letters, digits and !#$%&'*+-.^_`|~), but was "
                                + (name == null ? "null" : "'" + name + "'"));
            }
            return name;
        }

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public String getLaneHeader() {
            return laneHeader;
        }

        public void setLaneHeader(String laneHeader) {
            this.laneHeader = laneHeader;
        }

        public String getStressTestHeader() {
            return stressTestHeader;
        }

        public void setStressTestHeader(String stressTestHeader) {
            this.stressTestHeader = stressTestHeader;
        }
    }

    @Override
    public String toString() {
        // The proxy token is a secret: never shown.
        return "LaneMqProperties[applicationName=" + applicationName + ", configLocation=" + configLocation
                + ", proxyToken=" + (proxyToken == null || proxyToken.isEmpty() ? "none" : "(set)") + ", lanes=" + lanes + "]";
    }
}

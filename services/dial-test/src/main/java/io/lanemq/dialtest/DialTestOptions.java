package io.lanemq.dialtest;

import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Everything a dial test run is told: which clusters, which kinds, how fast, how big, how much is tracked, how
 * often it reconciles and how long it waits. Immutable; the builder checks each setting when it is given, with a
 * message naming it.
 *
 * <pre>{@code
 * DialTestOptions config = DialTestOptions.builder()
 *     .nameServer("idc-a", "10.0.0.1:9876")
 *     .nameServer("idc-b", "10.1.0.1:9876")
 *     .ratePerSecond(50)                       // per broker and per kind
 *     .bodySize(1024)
 *     .samplingRatio(0.1)
 *     .period(Duration.ofSeconds(10))
 *     .build();
 * }</pre>
 */
public final class DialTestOptions {

    /** RocketMQ's topic and group alphabet. */
    private static final Pattern RESOURCE_NAME = Pattern.compile("[A-Za-z0-9_%|-]{1,127}");
    private static final Pattern NAME_SERVER = Pattern.compile("[^\\s:;]+:\\d{1,5}(;[^\\s:;]+:\\d{1,5})*");
    private static final Pattern LABEL = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}");
    static final double MAX_RATE = 100_000;
    private static final int MIN_BODY = 64;
    private static final int MAX_BODY = 4 << 20;
    private static final int MAX_QUEUES = 64;
    private static final int SECRET_BYTES = 32;

    private final Map<String, String> nameServers;
    private final Set<ProbeKind> kinds;
    private final double ratePerSecond;
    private final int bodySize;
    private final double samplingRatio;
    private final Duration period;
    private final Duration grace;
    private final Duration delay;
    private final Duration checkBackAllowance;
    private final Duration retention;
    private final Duration sendTimeout;
    private final Duration staleAfter;
    private final InetSocketAddress ackListenAddress;
    private final byte[] ackSecret;
    private final InetSocketAddress metricsAddress;
    private final String probeTopic;
    private final int queuesPerBroker;
    private final String consumerGroup;
    private final DelayServerTarget delayServer;
    private final LogicTopicTarget logicTopic;
    private final String configProbeKey;

    private DialTestOptions(Builder b) {
        this.nameServers = Collections.unmodifiableMap(new LinkedHashMap<>(b.nameServers));
        this.kinds = Collections.unmodifiableSet(EnumSet.copyOf(b.kinds));
        this.ratePerSecond = b.ratePerSecond;
        this.bodySize = b.bodySize;
        this.samplingRatio = b.samplingRatio;
        this.period = b.period;
        this.grace = b.grace;
        this.delay = b.delay;
        this.checkBackAllowance = b.checkBackAllowance;
        this.retention = b.retention;
        this.sendTimeout = b.sendTimeout;
        this.staleAfter = b.staleAfter;
        this.ackListenAddress = b.ackListenAddress;
        this.ackSecret = b.ackSecret != null ? b.ackSecret.clone() : randomSecret();
        this.metricsAddress = b.metricsAddress;
        this.probeTopic = b.probeTopic;
        this.queuesPerBroker = b.queuesPerBroker;
        this.consumerGroup = b.consumerGroup;
        this.delayServer = b.delayServer;
        this.logicTopic = b.logicTopic;
        this.configProbeKey = b.configProbeKey;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder preset with this configuration's settings (the secret included). */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.nameServers.putAll(nameServers);
        b.kinds = EnumSet.copyOf(kinds);
        b.ratePerSecond = ratePerSecond;
        b.bodySize = bodySize;
        b.samplingRatio = samplingRatio;
        b.period = period;
        b.grace = grace;
        b.delay = delay;
        b.checkBackAllowance = checkBackAllowance;
        b.retention = retention;
        b.sendTimeout = sendTimeout;
        b.staleAfter = staleAfter;
        b.ackListenAddress = ackListenAddress;
        b.ackSecret = ackSecret.clone();
        b.metricsAddress = metricsAddress;
        b.probeTopic = probeTopic;
        b.queuesPerBroker = queuesPerBroker;
        b.consumerGroup = consumerGroup;
        b.delayServer = delayServer;
        b.logicTopic = logicTopic;
        b.configProbeKey = configProbeKey;
        b.kindsChosen = true;
        return b;
    }

    /** Name server address by label (an IDC name, say); every cluster each one knows is probed. */
    public Map<String, String> nameServers() {
        return nameServers;
    }

    public Set<ProbeKind> kinds() {
        return kinds;
    }

    /** Probes per second, per broker and per kind (default 10). */
    public double ratePerSecond() {
        return ratePerSecond;
    }

    /** Probe body size in bytes (default 512); a body is never shorter than its header. */
    public int bodySize() {
        return bodySize;
    }

    /** Share of probes tracked and reconciled, in (0, 1] (default 1): the rest are sent but never acked. */
    public double samplingRatio() {
        return samplingRatio;
    }

    /** Reconciliation period: one live-table refresh each (default 5 s). */
    public Duration period() {
        return period;
    }

    /** How long after its due time a probe may still be acked before it counts as lost (default 10 s). */
    public Duration grace() {
        return grace;
    }

    /** Delay of delayed probes (default 5 s). */
    public Duration delay() {
        return delay;
    }

    /**
     * Extra time for transactional probes resolved by the broker's check-back, which comes after the broker's
     * {@code transactionTimeOut} and within one {@code transactionCheckInterval} (defaults 6 s and 30 s: default 45 s).
     */
    public Duration checkBackAllowance() {
        return checkBackAllowance;
    }

    /** How long a resolved probe is remembered to recognize duplicate acks (default 60 s). */
    public Duration retention() {
        return retention;
    }

    /** Timeout of one probe send (default 3 s). */
    public Duration sendTimeout() {
        return sendTimeout;
    }

    /** The consumer does not ack a probe this long past its due time: a leftover of an earlier run (default 10 min). */
    public Duration staleAfter() {
        return staleAfter;
    }

    /** Where the ack listener listens (default 127.0.0.1, any free port); probe bodies carry the bound address. */
    public InetSocketAddress ackListenAddress() {
        return ackListenAddress;
    }

    /** The shared secret of the ack channel's HMAC (default: random per run, fine when this process consumes). */
    public byte[] ackSecret() {
        return ackSecret.clone();
    }

    /** Where {@code /metrics} is served for Prometheus, or null for no HTTP endpoint (default null). */
    public InetSocketAddress metricsAddress() {
        return metricsAddress;
    }

    /** The probe topic, created with {@link #queuesPerBroker()} queues on every broker (default lanemq_dialtest_probe). */
    public String probeTopic() {
        return probeTopic;
    }

    /** Queues of the probe topic on each broker (default 2); probes go round-robin over them. */
    public int queuesPerBroker() {
        return queuesPerBroker;
    }

    /**
     * The probe consumer group (default lanemq-dialtest). Shared by every dial-test process probing the same
     * clusters: each probe is consumed once and acked to the producer named in its body.
     */
    public String consumerGroup() {
        return consumerGroup;
    }

    /** Where {@link ProbeKind#DELAY_SERVER} probes go; empty when no delay server is probed. */
    public Optional<DelayServerTarget> delayServer() {
        return Optional.ofNullable(delayServer);
    }

    /** Where {@link ProbeKind#LOGIC_TOPIC} probes go; empty when no logic topic is probed. */
    public Optional<LogicTopicTarget> logicTopic() {
        return Optional.ofNullable(logicTopic);
    }

    /**
     * The logic topic of the platform configuration whose rate limit the {@link ProbeKind#CONFIG_PROPAGATION} probes
     * change (nothing sends to it, so the change is harmless); empty when configuration propagation is not probed.
     */
    public Optional<String> configProbeKey() {
        return Optional.ofNullable(configProbeKey);
    }

    /**
     * A logic topic to probe through the SDK: the platform configuration a client of the dial test reads (as an
     * application's {@code configLocation}: {@code file:...}, {@code etcd://...}), the logic topic, routed to both
     * IDCs, and its consumer group, declared on it, which the dial test consumes in.
     */
    public record LogicTopicTarget(String configLocation, String logicTopic, String consumerGroup) {
    }

    /**
     * A delay server to probe: the internal delay topic its cluster's servers read, and the logic topic whose
     * platform route leads to the probe topic, so what the server delivers reaches the probe consumers.
     */
    public record DelayServerTarget(String internalTopic, String logicTopic) {
    }

    @Override
    public String toString() {
        return "DialTestOptions[nameServers=" + nameServers + ", kinds=" + kinds + ", ratePerSecond=" + ratePerSecond
            + ", bodySize=" + bodySize + ", samplingRatio=" + samplingRatio + ", period=" + period + ", grace=" + grace
            + ", delay=" + delay + ", checkBackAllowance=" + checkBackAllowance + ", retention=" + retention
            + ", sendTimeout=" + sendTimeout + ", staleAfter=" + staleAfter + ", ackListenAddress=" + ackListenAddress
            + ", metricsAddress=" + metricsAddress + ", probeTopic=" + probeTopic + ", queuesPerBroker="
            + queuesPerBroker + ", consumerGroup=" + consumerGroup + ", delayServer=" + delayServer + ", logicTopic=" + logicTopic
            + ", configProbeKey=" + configProbeKey + "]";
    }

    private static byte[] randomSecret() {
        byte[] secret = new byte[SECRET_BYTES];
        new SecureRandom().nextBytes(secret);
        return secret;
    }

    /** Builder of {@link DialTestOptions}; not thread-safe. */
    public static final class Builder {
        private final Map<String, String> nameServers = new LinkedHashMap<>();
        private EnumSet<ProbeKind> kinds = EnumSet.copyOf(ProbeKind.brokerKinds());
        private boolean kindsChosen;
        private DelayServerTarget delayServer;
        private LogicTopicTarget logicTopic;
        private String configProbeKey;
        private double ratePerSecond = 10;
        private int bodySize = 512;
        private double samplingRatio = 1.0;
        private Duration period = Duration.ofSeconds(5);
        private Duration grace = Duration.ofSeconds(10);
        private Duration delay = Duration.ofSeconds(5);
        private Duration checkBackAllowance = Duration.ofSeconds(45);
        private Duration retention = Duration.ofSeconds(60);
        private Duration sendTimeout = Duration.ofSeconds(3);
        private Duration staleAfter = Duration.ofMinutes(10);
        private InetSocketAddress ackListenAddress = new InetSocketAddress("127.0.0.1", 0);
        private byte[] ackSecret;
        private InetSocketAddress metricsAddress;
        private String probeTopic = "lanemq_dialtest_probe";
        private int queuesPerBroker = 2;
        private String consumerGroup = "lanemq-dialtest";

        private Builder() {
        }

        /** Adds a name server to discover clusters and brokers from; {@code address} is {@code host:port[;host:port]}. */
        public Builder nameServer(String label, String address) {
            if (label == null || !LABEL.matcher(label).matches()) {
                throw new IllegalArgumentException("nameServers label must match " + LABEL + ": " + label);
            }
            if (address == null || !NAME_SERVER.matcher(address.trim()).matches()) {
                throw new IllegalArgumentException(
                    "nameServers address of " + label + " must be host:port[;host:port...]: " + address);
            }
            if (nameServers.putIfAbsent(label, address.trim()) != null) {
                throw new IllegalArgumentException("nameServers label " + label + " given twice");
            }
            return this;
        }

        public Builder kinds(Set<ProbeKind> kinds) {
            if (kinds == null || kinds.isEmpty()) {
                throw new IllegalArgumentException("kinds must name at least one probe kind");
            }
            this.kinds = EnumSet.copyOf(kinds);
            this.kindsChosen = true;
            return this;
        }

        public Builder ratePerSecond(double rate) {
            if (!(rate > 0 && rate <= MAX_RATE)) {
                throw new IllegalArgumentException("ratePerSecond must be in (0, " + (long) MAX_RATE + "]: " + rate);
            }
            this.ratePerSecond = rate;
            return this;
        }

        public Builder bodySize(int bytes) {
            if (bytes < MIN_BODY || bytes > MAX_BODY) {
                throw new IllegalArgumentException("bodySize must be in [" + MIN_BODY + ", " + MAX_BODY + "] bytes: " + bytes);
            }
            this.bodySize = bytes;
            return this;
        }

        public Builder samplingRatio(double ratio) {
            if (!(ratio > 0 && ratio <= 1)) {
                throw new IllegalArgumentException("samplingRatio must be in (0, 1]: " + ratio);
            }
            this.samplingRatio = ratio;
            return this;
        }

        public Builder period(Duration period) {
            this.period = between("period", period, Duration.ofMillis(100), Duration.ofHours(1));
            return this;
        }

        public Builder grace(Duration grace) {
            this.grace = between("grace", grace, Duration.ofMillis(1), Duration.ofHours(1));
            return this;
        }

        public Builder delay(Duration delay) {
            // The gRPC proxy caps timer messages at 24 h; brokers at timerMaxDelaySec (3 days by default).
            this.delay = between("delay", delay, Duration.ofMillis(1), Duration.ofHours(24));
            return this;
        }

        public Builder checkBackAllowance(Duration allowance) {
            this.checkBackAllowance = between("checkBackAllowance", allowance, Duration.ZERO, Duration.ofHours(1));
            return this;
        }

        public Builder retention(Duration retention) {
            this.retention = between("retention", retention, Duration.ofSeconds(1), Duration.ofHours(24));
            return this;
        }

        public Builder sendTimeout(Duration timeout) {
            this.sendTimeout = between("sendTimeout", timeout, Duration.ofMillis(10), Duration.ofMinutes(5));
            return this;
        }

        public Builder staleAfter(Duration staleAfter) {
            this.staleAfter = between("staleAfter", staleAfter, Duration.ofSeconds(1), Duration.ofDays(30));
            return this;
        }

        /** A concrete address to listen on (port 0 = any free port); a wildcard address is refused. */
        public Builder ackListenAddress(InetSocketAddress address) {
            this.ackListenAddress = concrete("ackListenAddress", address);
            return this;
        }

        public Builder ackSecret(byte[] secret) {
            if (secret == null || secret.length < AckCodec.MIN_SECRET_BYTES) {
                throw new IllegalArgumentException(
                    "ackSecret must have at least " + AckCodec.MIN_SECRET_BYTES + " bytes");
            }
            this.ackSecret = secret.clone();
            return this;
        }

        /** Serves {@code /metrics} there (port 0 = any free port); null for no endpoint. */
        public Builder metricsAddress(InetSocketAddress address) {
            this.metricsAddress = address == null ? null : checkResolved("metricsAddress", address);
            return this;
        }

        /**
         * Probes the delay server too ({@link ProbeKind#DELAY_SERVER}, added to the default kinds): probes go to
         * {@code internalTopic} on each broker and come back through {@code logicTopic}, which the platform
         * configuration must route to the probe topic.
         */
        public Builder delayServer(String internalTopic, String logicTopic) {
            this.delayServer = new DelayServerTarget(resourceName("delayServerTopic", internalTopic),
                resourceName("delayLogicTopic", logicTopic));
            return this;
        }

        /**
         * Probes a logic topic through the SDK too ({@link ProbeKind#LOGIC_TOPIC}, added to the default kinds): a client
         * on {@code configLocation} sends to {@code logicTopic} and consumes it in {@code consumerGroup}.
         */
        public Builder logicTopic(String configLocation, String logicTopic, String consumerGroup) {
            if (configLocation == null || configLocation.isBlank()) {
                throw new IllegalArgumentException("logicTopicConfig must name the platform configuration (file:..., "
                    + "etcd://...): " + configLocation);
            }
            this.logicTopic = new LogicTopicTarget(configLocation.trim(), resourceName("logicTopic", logicTopic),
                resourceName("logicTopicGroup", consumerGroup));
            return this;
        }

        /**
         * Probes configuration propagation too ({@link ProbeKind#CONFIG_PROPAGATION}, added to the default kinds): the
         * rate limit of logic topic {@code key} is changed, and the time until the logic-topic client applied it is
         * measured. Needs {@link #logicTopic} (that client) and a publisher given to the run.
         */
        public Builder configProbeKey(String key) {
            this.configProbeKey = resourceName("configProbeKey", key);
            return this;
        }

        public Builder probeTopic(String topic) {
            this.probeTopic = resourceName("probeTopic", topic);
            return this;
        }

        public Builder queuesPerBroker(int queues) {
            if (queues < 1 || queues > MAX_QUEUES) {
                throw new IllegalArgumentException("queuesPerBroker must be in [1, " + MAX_QUEUES + "]: " + queues);
            }
            this.queuesPerBroker = queues;
            return this;
        }

        public Builder consumerGroup(String group) {
            this.consumerGroup = resourceName("consumerGroup", group);
            return this;
        }

        /** Checks the settings together and returns the configuration. */
        public DialTestOptions build() {
            if (nameServers.isEmpty()) {
                throw new IllegalArgumentException("nameServers must name at least one name server");
            }
            if (delayServer != null && !kindsChosen) {
                kinds.add(ProbeKind.DELAY_SERVER);
            }
            if (kinds.contains(ProbeKind.DELAY_SERVER) && delayServer == null) {
                throw new IllegalArgumentException("the delay_server kind needs a delay server to probe: name its internal "
                    + "topic and the logic topic routed to the probe topic (--delay-server-topic, --delay-logic-topic)");
            }
            if (logicTopic != null && !kindsChosen) {
                kinds.add(ProbeKind.LOGIC_TOPIC);
            }
            if (configProbeKey != null && !kindsChosen) {
                kinds.add(ProbeKind.CONFIG_PROPAGATION);
            }
            if (kinds.contains(ProbeKind.LOGIC_TOPIC) && logicTopic == null) {
                throw new IllegalArgumentException("the logic_topic kind needs a logic topic to probe: name the platform "
                    + "configuration, the logic topic and its consumer group (--logic-topic-config, --logic-topic, "
                    + "--logic-topic-group)");
            }
            if (kinds.contains(ProbeKind.CONFIG_PROPAGATION) && (configProbeKey == null || logicTopic == null)) {
                throw new IllegalArgumentException("the config_propagation kind needs a probe key and the logic-topic "
                    + "client that applies it (--config-probe-key with --logic-topic-config)");
            }
            if (retention.compareTo(grace) < 0) {
                throw new IllegalArgumentException("retention (" + retention + ") must not be shorter than grace ("
                    + grace + "): a duplicate could then pass for an unknown probe");
            }
            return new DialTestOptions(this);
        }

        /** {@code value}, if within [min, max]; else an error naming the setting. Shared with {@link StressOptions}. */
        static Duration between(String name, Duration value, Duration min, Duration max) {
            Objects.requireNonNull(value, name);
            if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
                throw new IllegalArgumentException(name + " must be in [" + min + ", " + max + "]: " + value);
            }
            return value;
        }

        private static InetSocketAddress concrete(String name, InetSocketAddress address) {
            checkResolved(name, address);
            if (address.getAddress().isAnyLocalAddress()) {
                throw new IllegalArgumentException(name + " must be a concrete address, not the wildcard "
                    + address.getAddress().getHostAddress() + ": nothing may listen beyond the configured address");
            }
            return address;
        }

        private static InetSocketAddress checkResolved(String name, InetSocketAddress address) {
            Objects.requireNonNull(address, name);
            if (address.isUnresolved()) {
                throw new IllegalArgumentException(name + " does not resolve: " + address.getHostString());
            }
            return address;
        }

        private static String resourceName(String name, String value) {
            if (value == null || !RESOURCE_NAME.matcher(value).matches()) {
                throw new IllegalArgumentException(name + " must match " + RESOURCE_NAME + ": " + value);
            }
            return value;
        }
    }
}

package io.lanemq.delay.server;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * What one delay server needs besides the platform configuration; immutable, built by a
 * validating {@link Builder}. The internal topic and group come from the platform configuration's
 * {@code delay} section.
 *
 * @param configLocation the platform configuration ({@code file:/...} or {@code etcd://host:port/key?cacert=...}: see sdk/platform-config/README.md, etcd locations)
 * @param storeDir       the store's root; each cluster's engine gets a directory below it
 * @param bindAddress    the address {@code /livez}, {@code /readyz} and {@code /metrics} are served on
 * @param metricsPort    their port; 0 = any free port, -1 = not served
 * @param reenqueueAfter how long a record may hold its queue's offset before it is sent upstream again
 * @param commitInterval how often offsets are committed (and overdue records re-enqueued)
 * @param shutdownGrace  how long a graceful shutdown waits for deliveries under way
 * @param checkpointInterval how often the offset ledgers are also checkpointed while running (zero = only at
 *                       graceful shutdown); after a crash a restart re-reads only what was read since
 * @param internalTopic  from the platform configuration (null until the server read it)
 * @param serverGroup    from the platform configuration (null until the server read it)
 */
public record DelayServerOptions(String configLocation, Path storeDir, String bindAddress, int metricsPort,
        Duration reenqueueAfter, Duration commitInterval, Duration shutdownGrace, Duration checkpointInterval,
        String internalTopic, String serverGroup) {

    /** The address {@code /livez}, {@code /readyz} and {@code /metrics} are served on when none is given. */
    public static final String DEFAULT_BIND_ADDRESS = "127.0.0.1";
    /** Their port when none is given. */
    public static final int DEFAULT_METRICS_PORT = 9406;
    /**
     * How long a record may hold its queue's offset when nothing else is given. This and the next two are constants
     * in the command line's units, so its options show and take them without a copy.
     */
    public static final long DEFAULT_REENQUEUE_AFTER_SECONDS = 600;
    /** The offset commit period when none is given. */
    public static final long DEFAULT_COMMIT_INTERVAL_MS = 1000;
    /**
     * Five minutes: a crash then re-reads at most five minutes of the topic, and a checkpoint that
     * young still fits the broker's committed offset (which passes a checkpoint's next offset only
     * once everything it held is settled or re-enqueued, i.e. after about {@code reenqueueAfter}).
     * Each write costs ~17 B per pending record (170 MB at 10 M), so not much more often.
     */
    public static final long DEFAULT_CHECKPOINT_INTERVAL_SECONDS = 300;

    public static Builder builder(String configLocation, Path storeDir) {
        return new Builder(configLocation, storeDir);
    }

    /** The same settings with the platform configuration's internal topic and group. */
    DelayServerOptions withInternalTopic(String topic, String group) {
        return new DelayServerOptions(configLocation, storeDir, bindAddress, metricsPort, reenqueueAfter,
                commitInterval, shutdownGrace, checkpointInterval, topic, group);
    }

    /** Not thread-safe; each setter validates at once and names the setting it rejects. */
    public static final class Builder {
        private final String configLocation;
        private final Path storeDir;
        private String bindAddress = DEFAULT_BIND_ADDRESS;
        private int metricsPort = DEFAULT_METRICS_PORT;
        private Duration reenqueueAfter = Duration.ofSeconds(DEFAULT_REENQUEUE_AFTER_SECONDS);
        private Duration commitInterval = Duration.ofMillis(DEFAULT_COMMIT_INTERVAL_MS);
        private Duration shutdownGrace = Duration.ofSeconds(5);
        private Duration checkpointInterval = Duration.ofSeconds(DEFAULT_CHECKPOINT_INTERVAL_SECONDS);

        private Builder(String configLocation, Path storeDir) {
            if (configLocation == null || configLocation.isBlank()) {
                throw new IllegalArgumentException("configLocation must name a platform configuration: " + configLocation);
            }
            this.configLocation = configLocation;
            this.storeDir = Objects.requireNonNull(storeDir, "storeDir");
        }

        public Builder bindAddress(String bindAddress) {
            if (bindAddress == null || bindAddress.isBlank()) {
                throw new IllegalArgumentException("bindAddress must not be blank: " + bindAddress);
            }
            this.bindAddress = bindAddress;
            return this;
        }

        /** 0 = any free port; -1 = no HTTP endpoint. */
        public Builder metricsPort(int metricsPort) {
            if (metricsPort < -1 || metricsPort > 65535) {
                throw new IllegalArgumentException("metricsPort must be -1 (off), 0 (any) or 1-65535: " + metricsPort);
            }
            this.metricsPort = metricsPort;
            return this;
        }

        public Builder reenqueueAfter(Duration reenqueueAfter) {
            requireBetween("reenqueueAfter", reenqueueAfter, Duration.ofSeconds(1), Duration.ofDays(1));
            this.reenqueueAfter = reenqueueAfter;
            return this;
        }

        public Builder commitInterval(Duration commitInterval) {
            requireBetween("commitInterval", commitInterval, Duration.ofMillis(10), Duration.ofMinutes(1));
            this.commitInterval = commitInterval;
            return this;
        }

        public Builder shutdownGrace(Duration shutdownGrace) {
            requireBetween("shutdownGrace", shutdownGrace, Duration.ZERO, Duration.ofMinutes(10));
            this.shutdownGrace = shutdownGrace;
            return this;
        }

        /** Zero = checkpoint only at graceful shutdown; else between 1 s and 1 h. */
        public Builder checkpointInterval(Duration checkpointInterval) {
            Objects.requireNonNull(checkpointInterval, "checkpointInterval");
            if (!checkpointInterval.isZero()) {
                requireBetween("checkpointInterval", checkpointInterval, Duration.ofSeconds(1), Duration.ofHours(1));
            }
            this.checkpointInterval = checkpointInterval;
            return this;
        }

        public DelayServerOptions build() {
            if (commitInterval.compareTo(reenqueueAfter) >= 0) {
                throw new IllegalArgumentException("commitInterval " + commitInterval + " must be shorter than reenqueueAfter "
                        + reenqueueAfter);
            }
            return new DelayServerOptions(configLocation, storeDir, bindAddress, metricsPort, reenqueueAfter,
                    commitInterval, shutdownGrace, checkpointInterval, null, null);
        }

        private static void requireBetween(String setting, Duration value, Duration min, Duration max) {
            Objects.requireNonNull(value, setting);
            if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
                throw new IllegalArgumentException(setting + " must be between " + min + " and " + max + ": " + value);
            }
        }
    }
}

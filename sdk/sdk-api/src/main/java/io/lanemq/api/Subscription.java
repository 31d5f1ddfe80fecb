package io.lanemq.api;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What a consumer wants: a logic topic, the consumer group it consumes as, and whether order per
 * sharding key matters. Immutable; build it with {@link #builder(String, String)}.
 *
 * <p>Every consumer of a group receives a share of the topic's messages; each group receives
 * every message. The group must be declared for the logic topic in the platform configuration.
 *
 * <pre>{@code
 * Subscription subscription = Subscription.builder("order-paid", "billing").ordered(true).build();
 * Subscription busy = Subscription.builder("order-paid", "audit")
 *     .threads(16)                 // instead of the group's platform setting, for this consumer
 *     .maxDeliveryAttempts(3)
 *     .build();
 * }</pre>
 *
 * <p>{@link #threads()} and {@link #maxDeliveryAttempts()} override the group's platform configuration for this
 * consumer only; unset, the platform's values apply (and follow its reloads).
 */
public final class Subscription {
    private final String logicTopic;
    private final String consumerGroup;
    private final boolean ordered;
    private final String tagFilter;
    private final Deduplication deduplication;
    private final int threads;
    private final int maxDeliveryAttempts;
    private final RetryBackoff retryBackoff;

    private Subscription(Builder builder) {
        this.logicTopic = builder.logicTopic;
        this.consumerGroup = builder.consumerGroup;
        this.ordered = builder.ordered;
        this.tagFilter = builder.tagFilter;
        this.deduplication = builder.deduplication;
        this.threads = builder.threads;
        this.maxDeliveryAttempts = builder.maxDeliveryAttempts;
        this.retryBackoff = builder.retryBackoff;
    }

    public static Builder builder(String logicTopic, String consumerGroup) {
        return new Builder(logicTopic, consumerGroup);
    }

    public String logicTopic() {
        return logicTopic;
    }

    public String consumerGroup() {
        return consumerGroup;
    }

    /** True when messages with the same sharding key are processed one at a time, in send order. */
    public boolean ordered() {
        return ordered;
    }

    /** A tag filter such as {@code "paid || refunded"}; {@code "*"} takes every message. */
    public String tagFilter() {
        return tagFilter;
    }

    /** Copies this consumer drops before its listener sees them; empty (the default): every delivery is handed over. */
    public Optional<Deduplication> deduplication() {
        return Optional.ofNullable(deduplication);
    }

    /**
     * Listener threads of this consumer in total, over all the clusters it consumes from; empty means the
     * group's {@code threads} from the platform configuration (also a total).
     */
    public OptionalInt threads() {
        return threads == 0 ? OptionalInt.empty() : OptionalInt.of(threads);
    }

    /**
     * Deliveries of a message before it goes to the group's dead-letter topic; empty means the group's
     * {@code maxDeliveryAttempts} from the platform configuration. Applies where this client consumes from the
     * brokers itself (DIRECT mode); in PROXY mode the proxy delivers and its group setting applies.
     */
    public OptionalInt maxDeliveryAttempts() {
        return maxDeliveryAttempts == 0 ? OptionalInt.empty() : OptionalInt.of(maxDeliveryAttempts);
    }

    /** The wait before each redelivery; empty (the default): RocketMQ's ladder in DIRECT mode, the proxy's in PROXY mode. */
    public Optional<RetryBackoff> retryBackoff() {
        return Optional.ofNullable(retryBackoff);
    }

    @Override
    public String toString() {
        return "Subscription[logicTopic=" + logicTopic + ", consumerGroup=" + consumerGroup + ", ordered=" + ordered
                + ", tagFilter=" + tagFilter + (threads == 0 ? "" : ", threads=" + threads)
                + (maxDeliveryAttempts == 0 ? "" : ", maxDeliveryAttempts=" + maxDeliveryAttempts)
                + (deduplication == null ? "" : ", " + deduplication)
                + (retryBackoff == null ? "" : ", " + retryBackoff) + "]";
    }

    /** Builds a {@link Subscription}; not thread-safe. */
    public static final class Builder {
        private final String logicTopic;
        private final String consumerGroup;
        private boolean ordered;
        private String tagFilter = "*";
        private Deduplication deduplication;
        private int threads;
        private int maxDeliveryAttempts;
        private RetryBackoff retryBackoff;

        private Builder(String logicTopic, String consumerGroup) {
            this.logicTopic = Names.requireName("logicTopic", logicTopic);
            this.consumerGroup = Names.requireName("consumerGroup", consumerGroup);
        }

        public Builder ordered(boolean ordered) {
            this.ordered = ordered;
            return this;
        }

        public Builder tagFilter(String tagFilter) {
            this.tagFilter = Names.requireText("tagFilter", Objects.requireNonNull(tagFilter, "tagFilter"));
            return this;
        }

        /** Drops copies of messages already processed successfully by this consumer (see {@link Deduplication}). */
        public Builder deduplicate(Deduplication deduplication) {
            this.deduplication = Objects.requireNonNull(deduplication, "deduplication");
            return this;
        }

        /** Listener threads in total over all clusters, instead of the group's platform setting; at least 1. */
        public Builder threads(int threads) {
            if (threads < 1) {
                throw new IllegalArgumentException("threads must be >= 1, was " + threads + " [logicTopic=" + logicTopic
                        + ", consumerGroup=" + consumerGroup + "]");
            }
            this.threads = threads;
            return this;
        }

        /** Deliveries before the dead-letter topic, instead of the group's platform setting; at least 1. */
        public Builder maxDeliveryAttempts(int maxDeliveryAttempts) {
            if (maxDeliveryAttempts < 1) {
                throw new IllegalArgumentException("maxDeliveryAttempts must be >= 1, was " + maxDeliveryAttempts
                        + " [logicTopic=" + logicTopic + ", consumerGroup=" + consumerGroup + "]");
            }
            this.maxDeliveryAttempts = maxDeliveryAttempts;
            return this;
        }

        /** The wait before each redelivery of a message the listener did not process (see {@link RetryBackoff}). */
        public Builder retryBackoff(RetryBackoff retryBackoff) {
            this.retryBackoff = Objects.requireNonNull(retryBackoff, "retryBackoff");
            return this;
        }

        public Subscription build() {
            return new Subscription(this);
        }
    }
}

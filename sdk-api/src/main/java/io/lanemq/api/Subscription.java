package io.lanemq.api;

import java.util.Objects;
import java.util.Optional;

/**
 * What a consumer wants: a logic topic, the consumer group it consumes as, and whether order per
 * sharding key matters. Immutable; build it with {@link #builder(String, String)}.
 *
 * <p>Every consumer of a group receives a share of the topic's messages; each group receives
 * every message. The group must be declared for the logic topic in the platform configuration.
 *
 * <pre>{@code
 * Subscription subscription = Subscription.builder("order-paid", "billing").ordered(true).build();
 * }</pre>
 */
public final class Subscription {
    private final String logicTopic;
    private final String consumerGroup;
    private final boolean ordered;
    private final String tagFilter;
    private final Deduplication deduplication;

    private Subscription(Builder builder) {
        this.logicTopic = builder.logicTopic;
        this.consumerGroup = builder.consumerGroup;
        this.ordered = builder.ordered;
        this.tagFilter = builder.tagFilter;
        this.deduplication = builder.deduplication;
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

    @Override
    public String toString() {
        return "Subscription[logicTopic=" + logicTopic + ", consumerGroup=" + consumerGroup + ", ordered=" + ordered
                + ", tagFilter=" + tagFilter + (deduplication == null ? "" : ", " + deduplication) + "]";
    }

    /** Builds a {@link Subscription}; not thread-safe. */
    public static final class Builder {
        private final String logicTopic;
        private final String consumerGroup;
        private boolean ordered;
        private String tagFilter = "*";
        private Deduplication deduplication;

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

        public Subscription build() {
            return new Subscription(this);
        }
    }
}

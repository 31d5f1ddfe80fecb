package io.lanemq.api.spi;

import io.lanemq.api.RetryBackoff;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A consumer of one physical topic on one cluster. Immutable and thread-safe.
 *
 * <p>Build one with {@link #builder(ClusterEndpoint, String, String)}: the spec gains components as
 * bindings learn new things, and a builder call keeps compiling when it does, where the canonical
 * constructor changes its signature with every component.
 *
 * <pre>{@code
 * BoundConsumerSpec spec = BoundConsumerSpec.builder(endpoint, "billing", "order_paid_a")
 *     .tagFilter("paid || refunded")
 *     .consumeThreads(4)
 *     .startPosition(BoundConsumerSpec.StartPosition.EARLIEST)
 *     .build();
 * }</pre>
 *
 * @param cluster           where to consume
 * @param consumerGroup     the group; members share the topic's queues
 * @param topic             the physical topic
 * @param tagFilter         tag expression, {@code "*"} for all
 * @param ordered           one message at a time per queue, in queue order
 * @param consumeThreads    listener threads
 * @param maxDeliveryAttempts deliveries before the message goes to the group's dead-letter topic
 * @param startPosition     where a group with no committed offset starts
 * @param batchSize         messages fetched from a queue per request
 * @param drainTopics       topics the group consumed before a move and must still empty; subscribed
 *                          alongside {@code topic} so that every member of the group subscribes alike
 * @param memberTag         what this member tells the other members of its group about itself (see
 *                          {@link BoundConsumer#memberTags()}); letters, digits and {@code . _ - ~ :}, at most 96
 * @param shadowTopics      the shadow topics of {@code topic} that hold its stress-test traffic; subscribed
 *                          alongside it, by the same group and listener, for as long as the consumer runs
 * @param retryBackoff      the wait before each redelivery of a message the listener did not process; empty: the
 *                          broker's own ladder
 */
public record BoundConsumerSpec(ClusterEndpoint cluster, String consumerGroup, String topic, String tagFilter,
                                boolean ordered, int consumeThreads, int maxDeliveryAttempts,
                                StartPosition startPosition, int batchSize, List<String> drainTopics,
                                Optional<String> memberTag, List<String> shadowTopics,
                                Optional<RetryBackoff> retryBackoff) {
    private static final Pattern MEMBER_TAG = Pattern.compile("[A-Za-z0-9._~:\\-]{1,96}");

    public BoundConsumerSpec {
        Objects.requireNonNull(cluster, "cluster");
        Objects.requireNonNull(consumerGroup, "consumerGroup");
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(tagFilter, "tagFilter");
        Objects.requireNonNull(startPosition, "startPosition");
        drainTopics = List.copyOf(drainTopics);
        Objects.requireNonNull(memberTag, "memberTag");
        memberTag.ifPresent(BoundConsumerSpec::requireMemberTag);
        shadowTopics = List.copyOf(shadowTopics);
        Objects.requireNonNull(retryBackoff, "retryBackoff");
        requireAtLeastOne("consumeThreads", consumeThreads);
        requireAtLeastOne("batchSize", batchSize);
        requireAtLeastOne("maxDeliveryAttempts", maxDeliveryAttempts);
    }

    /**
     * A builder for a consumer of {@code topic} on {@code cluster} in {@code consumerGroup}, with every other
     * component at its default: all tags ({@code "*"}), unordered, 8 listener threads, 16 delivery attempts,
     * {@link StartPosition#LATEST}, 32 messages per fetch, nothing to drain, no member tag, no shadow topics.
     */
    public static Builder builder(ClusterEndpoint cluster, String consumerGroup, String topic) {
        return new Builder(cluster, consumerGroup, topic);
    }

    /** A builder that starts from this spec's components. */
    public Builder toBuilder() {
        Builder builder = new Builder(cluster, consumerGroup, topic).tagFilter(tagFilter).ordered(ordered)
                .consumeThreads(consumeThreads).maxDeliveryAttempts(maxDeliveryAttempts).startPosition(startPosition)
                .batchSize(batchSize).drainTopics(drainTopics).shadowTopics(shadowTopics);
        memberTag.ifPresent(builder::memberTag);
        retryBackoff.ifPresent(builder::retryBackoff);
        return builder;
    }

    /** The same consumer, also draining {@code topics}. */
    public BoundConsumerSpec draining(List<String> topics) {
        return toBuilder().drainTopics(topics).build();
    }

    /** The same consumer, joining its group with {@code tag}. */
    public BoundConsumerSpec withMemberTag(String tag) {
        return toBuilder().memberTag(tag).build();
    }

    /** The same consumer, also consuming the stress-test traffic of {@code topics}. */
    public BoundConsumerSpec withShadowTopics(List<String> topics) {
        return toBuilder().shadowTopics(topics).build();
    }

    private static int requireAtLeastOne(String name, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(name + " must be >= 1, was " + value);
        }
        return value;
    }

    private static String requireMemberTag(String tag) {
        if (!MEMBER_TAG.matcher(tag).matches()) {
            throw new IllegalArgumentException("memberTag must be 1-96 letters, digits or . _ - ~ :, was '" + tag + "'");
        }
        return tag;
    }

    private static <T> T requireNonNull(String name, T value) {
        if (value == null) {
            throw new IllegalArgumentException(name + " must not be null");
        }
        return value;
    }

    /** Builds a {@link BoundConsumerSpec}; each setting is checked when it is made. Not thread-safe. */
    public static final class Builder {
        private final ClusterEndpoint cluster;
        private final String consumerGroup;
        private final String topic;
        private String tagFilter = "*";
        private boolean ordered;
        private int consumeThreads = 8;
        private int maxDeliveryAttempts = 16;
        private StartPosition startPosition = StartPosition.LATEST;
        private int batchSize = 32;
        private List<String> drainTopics = List.of();
        private Optional<String> memberTag = Optional.empty();
        private List<String> shadowTopics = List.of();
        private Optional<RetryBackoff> retryBackoff = Optional.empty();

        private Builder(ClusterEndpoint cluster, String consumerGroup, String topic) {
            this.cluster = requireNonNull("cluster", cluster);
            this.consumerGroup = requireNonNull("consumerGroup", consumerGroup);
            this.topic = requireNonNull("topic", topic);
        }

        /** A tag expression ({@code "a || b"}); {@code "*"} for all. */
        public Builder tagFilter(String tagFilter) {
            this.tagFilter = requireNonNull("tagFilter", tagFilter);
            return this;
        }

        public Builder ordered(boolean ordered) {
            this.ordered = ordered;
            return this;
        }

        public Builder consumeThreads(int consumeThreads) {
            this.consumeThreads = requireAtLeastOne("consumeThreads", consumeThreads);
            return this;
        }

        public Builder maxDeliveryAttempts(int maxDeliveryAttempts) {
            this.maxDeliveryAttempts = requireAtLeastOne("maxDeliveryAttempts", maxDeliveryAttempts);
            return this;
        }

        public Builder startPosition(StartPosition startPosition) {
            this.startPosition = requireNonNull("startPosition", startPosition);
            return this;
        }

        public Builder batchSize(int batchSize) {
            this.batchSize = requireAtLeastOne("batchSize", batchSize);
            return this;
        }

        public Builder drainTopics(List<String> drainTopics) {
            this.drainTopics = List.copyOf(requireNonNull("drainTopics", drainTopics));
            return this;
        }

        /** Letters, digits and {@code . _ - ~ :}, at most 96; none unless set. */
        public Builder memberTag(String memberTag) {
            this.memberTag = Optional.of(requireMemberTag(requireNonNull("memberTag", memberTag)));
            return this;
        }

        public Builder shadowTopics(List<String> shadowTopics) {
            this.shadowTopics = List.copyOf(requireNonNull("shadowTopics", shadowTopics));
            return this;
        }

        /** The wait before each redelivery; none: the broker's own ladder. */
        public Builder retryBackoff(RetryBackoff retryBackoff) {
            this.retryBackoff = Optional.of(requireNonNull("retryBackoff", retryBackoff));
            return this;
        }

        public BoundConsumerSpec build() {
            return new BoundConsumerSpec(cluster, consumerGroup, topic, tagFilter, ordered, consumeThreads, maxDeliveryAttempts,
                    startPosition, batchSize, drainTopics, memberTag, shadowTopics, retryBackoff);
        }
    }

    /** Where a new consumer group starts reading. */
    public enum StartPosition {
        /** Only messages sent after the group first subscribed. */
        LATEST,
        /** Everything still stored. */
        EARLIEST
    }
}

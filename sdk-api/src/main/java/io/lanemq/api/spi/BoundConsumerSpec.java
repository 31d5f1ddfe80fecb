package io.lanemq.api.spi;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A consumer of one physical topic on one cluster.
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
 */
public record BoundConsumerSpec(ClusterEndpoint cluster, String consumerGroup, String topic, String tagFilter,
                                boolean ordered, int consumeThreads, int maxDeliveryAttempts,
                                StartPosition startPosition, int batchSize, List<String> drainTopics,
                                Optional<String> memberTag, List<String> shadowTopics) {
    private static final Pattern MEMBER_TAG = Pattern.compile("[A-Za-z0-9._~:\\-]{1,96}");

    /** No member tag, no shadow topics. */
    public BoundConsumerSpec(ClusterEndpoint cluster, String consumerGroup, String topic, String tagFilter, boolean ordered,
                             int consumeThreads, int maxDeliveryAttempts, StartPosition startPosition, int batchSize,
                             List<String> drainTopics) {
        this(cluster, consumerGroup, topic, tagFilter, ordered, consumeThreads, maxDeliveryAttempts, startPosition, batchSize,
                drainTopics, Optional.empty(), List.of());
    }

    /** The default batch size of 32 messages per fetch. */
    public BoundConsumerSpec(ClusterEndpoint cluster, String consumerGroup, String topic, String tagFilter, boolean ordered,
                             int consumeThreads, int maxDeliveryAttempts, StartPosition startPosition) {
        this(cluster, consumerGroup, topic, tagFilter, ordered, consumeThreads, maxDeliveryAttempts, startPosition, 32);
    }

    /** Nothing to drain. */
    public BoundConsumerSpec(ClusterEndpoint cluster, String consumerGroup, String topic, String tagFilter, boolean ordered,
                             int consumeThreads, int maxDeliveryAttempts, StartPosition startPosition, int batchSize) {
        this(cluster, consumerGroup, topic, tagFilter, ordered, consumeThreads, maxDeliveryAttempts, startPosition, batchSize,
                List.of());
    }

    /** The same consumer, also draining {@code topics}. */
    public BoundConsumerSpec draining(List<String> topics) {
        return new BoundConsumerSpec(cluster, consumerGroup, topic, tagFilter, ordered, consumeThreads, maxDeliveryAttempts,
                startPosition, batchSize, topics, memberTag, shadowTopics);
    }

    /** The same consumer, joining its group with {@code tag}. */
    public BoundConsumerSpec withMemberTag(String tag) {
        return new BoundConsumerSpec(cluster, consumerGroup, topic, tagFilter, ordered, consumeThreads, maxDeliveryAttempts,
                startPosition, batchSize, drainTopics, Optional.of(tag), shadowTopics);
    }

    /** The same consumer, also consuming the stress-test traffic of {@code topics}. */
    public BoundConsumerSpec withShadowTopics(List<String> topics) {
        return new BoundConsumerSpec(cluster, consumerGroup, topic, tagFilter, ordered, consumeThreads, maxDeliveryAttempts,
                startPosition, batchSize, drainTopics, memberTag, topics);
    }

    public BoundConsumerSpec {
        Objects.requireNonNull(cluster, "cluster");
        Objects.requireNonNull(consumerGroup, "consumerGroup");
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(tagFilter, "tagFilter");
        Objects.requireNonNull(startPosition, "startPosition");
        drainTopics = List.copyOf(drainTopics);
        Objects.requireNonNull(memberTag, "memberTag");
        if (memberTag.isPresent() && !MEMBER_TAG.matcher(memberTag.get()).matches()) {
            throw new IllegalArgumentException("memberTag must be 1-96 letters, digits or . _ - ~ :, was '" + memberTag.get() + "'");
        }
        shadowTopics = List.copyOf(shadowTopics);
        if (consumeThreads < 1) {
            throw new IllegalArgumentException("consumeThreads must be >= 1, was " + consumeThreads);
        }
        if (batchSize < 1) {
            throw new IllegalArgumentException("batchSize must be >= 1, was " + batchSize);
        }
        if (maxDeliveryAttempts < 1) {
            throw new IllegalArgumentException("maxDeliveryAttempts must be >= 1, was " + maxDeliveryAttempts);
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

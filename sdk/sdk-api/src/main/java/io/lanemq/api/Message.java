package io.lanemq.api;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A message to send to a <em>logic topic</em>: the application names what the message is about
 * ({@code order-paid}), never a cluster, a physical topic or an environment.
 *
 * <p>Immutable and thread-safe; build one with {@link #builder(String)}. The builder checks the
 * shape of each field at once and names the field it rejects; limits that depend on the platform
 * configuration (maximum body size, whether the logic topic exists) are checked by
 * {@link Producer#send(Message)} before anything reaches a broker.
 *
 * <pre>{@code
 * Message message = Message.builder("order-paid")
 *     .body("{\"orderId\":42}".getBytes(StandardCharsets.UTF_8))
 *     .keys("order-42")
 *     .tag("paid")
 *     .property("source", "checkout")
 *     .shardingKey("customer-7")   // same key: same queue, consumed in order
 *     .build();
 *
 * Message reminder = Message.builder("payment-reminder").body(bytes)
 *     .deliverAfter(Duration.ofMinutes(30))   // or .deliverAt(instant): any millisecond
 *     .build();
 * }</pre>
 *
 * <p><b>Delayed messages.</b> A message with a {@linkplain #deliverAt() due time} goes through
 * the platform's delay server and reaches the logic topic's consumers at that millisecond; a
 * due time already past is delivered at once. Its {@link SendResult#delayId()} cancels it
 * before it is due ({@link Producer#cancelDelayed(String)}).
 */
public final class Message {
    /** Longest sharding key accepted; keys are hashed to pick a queue, so long ones only cost. */
    public static final int MAX_SHARDING_KEY_LENGTH = 128;

    private final String logicTopic;
    private final byte[] body;
    private final List<String> keys;
    private final String tag;
    private final Map<String, String> properties;
    private final String shardingKey;
    private final Instant deliverAt;

    private Message(Builder builder) {
        this.logicTopic = builder.logicTopic;
        this.body = builder.body;
        this.keys = List.copyOf(builder.keys);
        this.tag = builder.tag;
        this.properties = Collections.unmodifiableMap(new LinkedHashMap<>(builder.properties));
        this.shardingKey = builder.shardingKey;
        this.deliverAt = builder.deliverAt;
    }

    /** Starts a message for the given logic topic. */
    public static Builder builder(String logicTopic) {
        return new Builder(logicTopic);
    }

    public String logicTopic() {
        return logicTopic;
    }

    /** The body; a copy, so the message stays immutable. */
    public byte[] body() {
        return body.clone();
    }

    /** Body length in bytes, without copying the body. */
    public int bodyLength() {
        return body.length;
    }

    /** Business keys, used to look a message up; may be empty. */
    public List<String> keys() {
        return keys;
    }

    public Optional<String> tag() {
        return Optional.ofNullable(tag);
    }

    /** User properties in insertion order. */
    public Map<String, String> properties() {
        return properties;
    }

    /**
     * The key whose messages are delivered in send order; empty for messages without order.
     * Messages with the same sharding key go to the same cluster and queue while the routing
     * configuration is unchanged.
     */
    public Optional<String> shardingKey() {
        return Optional.ofNullable(shardingKey);
    }

    /** When the message is due to its consumers; empty for an ordinary (immediate) message. */
    public Optional<Instant> deliverAt() {
        return Optional.ofNullable(deliverAt);
    }

    @Override
    public String toString() {
        return "Message[logicTopic=" + logicTopic + ", bodyLength=" + body.length + ", keys=" + keys
                + ", tag=" + tag + ", shardingKey=" + shardingKey
                + (deliverAt == null ? "" : ", deliverAt=" + deliverAt) + "]";
    }

    /** Builds a {@link Message}; not thread-safe, each setter validates its argument at once. */
    public static final class Builder {
        private final String logicTopic;
        private byte[] body;
        private List<String> keys = List.of();
        private String tag;
        private final Map<String, String> properties = new LinkedHashMap<>();
        private String shardingKey;
        private Instant deliverAt;

        private Builder(String logicTopic) {
            this.logicTopic = Names.requireName("logicTopic", logicTopic);
        }

        /** The body, copied; must not be empty. */
        public Builder body(byte[] body) {
            Objects.requireNonNull(body, "body must not be null");
            if (body.length == 0) {
                throw new IllegalArgumentException("body must not be empty [logicTopic=" + logicTopic + "]");
            }
            this.body = body.clone();
            return this;
        }

        public Builder keys(String... keys) {
            Objects.requireNonNull(keys, "keys must not be null");
            for (String key : keys) {
                Names.requireText("keys", key);
                if (key.indexOf(' ') >= 0) {
                    // RocketMQ joins keys with a space, so a space would split one key into two.
                    throw new IllegalArgumentException("keys must not contain spaces: '" + key + "'");
                }
            }
            this.keys = Arrays.asList(keys.clone());
            return this;
        }

        public Builder tag(String tag) {
            this.tag = Names.requireText("tag", tag);
            if (tag.contains("||")) {
                throw new IllegalArgumentException("tag must not contain '||' (it separates tags in filters): " + tag);
            }
            return this;
        }

        /**
         * A user property. The lane and stress-test marks ({@link MessageContext#LANE_PROPERTY},
         * {@link MessageContext#STRESS_TEST_PROPERTY}) are stamped from the sender's context; one set here
         * wins, which lets a service that re-sends a message keep the marks it arrived with.
         */
        public Builder property(String name, String value) {
            Names.requireText("property name", name);
            Objects.requireNonNull(value, () -> "property '" + name + "' must not have a null value");
            if (name.equals(MessageContext.LANE_PROPERTY)) {
                Lane.of(value);
            } else if (name.equals(MessageContext.STRESS_TEST_PROPERTY) && !value.equals("true")) {
                throw new IllegalArgumentException("property " + name + " marks stress-test traffic and can only be 'true', was '"
                        + value + "'");
            }
            properties.put(name, value);
            return this;
        }

        public Builder shardingKey(String shardingKey) {
            Names.requireText("shardingKey", shardingKey);
            if (shardingKey.length() > MAX_SHARDING_KEY_LENGTH) {
                throw new IllegalArgumentException("shardingKey is " + shardingKey.length()
                        + " characters, over the maximum of " + MAX_SHARDING_KEY_LENGTH);
            }
            this.shardingKey = shardingKey;
            return this;
        }

        /**
         * Delivers the message at {@code dueAt}, to the millisecond; an instant already past is
         * delivered at once. How far ahead is allowed is a platform limit, checked by the send.
         */
        public Builder deliverAt(Instant dueAt) {
            this.deliverAt = Objects.requireNonNull(dueAt, "deliverAt must not be null");
            return this;
        }

        /** Delivers the message {@code delay} after now (the time of this call); zero means at once. */
        public Builder deliverAfter(Duration delay) {
            Objects.requireNonNull(delay, "deliverAfter must not be null");
            if (delay.isNegative()) {
                throw new IllegalArgumentException("deliverAfter must not be negative: " + delay
                        + " (use deliverAt with a past instant to mean 'at once')");
            }
            this.deliverAt = Instant.now().plus(delay);
            return this;
        }

        public Message build() {
            if (body == null) {
                throw new IllegalStateException("body is required [logicTopic=" + logicTopic + "]");
            }
            return new Message(this);
        }
    }
}

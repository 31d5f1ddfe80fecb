package io.lanemq.delay;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One delayed message: when it is due, where it goes when due, and what it carries.
 *
 * <p>Immutable and thread-safe; {@link #body()} returns a copy. The due time is part of the
 * {@link DelayId}. On disk a record costs its fields plus 33 bytes (header, ordinal, CRC32C).
 *
 * <pre>{@code
 * DelayedRecord record = DelayedRecord.builder()
 *         .dueAt(Instant.now().plusSeconds(90).toEpochMilli())
 *         .target("order_paid", "cluster-a")
 *         .keys(List.of("order-42"))
 *         .property(MessageContext.LANE_PROPERTY, "A")
 *         .body(bytes)
 *         .build();
 * }</pre>
 */
public final class DelayedRecord {

    private final DelayId id;
    private final String topic;
    private final String cluster;
    private final List<String> keys;
    private final Map<String, String> properties;
    private final byte[] body;

    private DelayedRecord(DelayId id, String topic, String cluster, List<String> keys,
            Map<String, String> properties, byte[] body) {
        this.id = id;
        this.topic = topic;
        this.cluster = cluster;
        this.keys = keys;
        this.properties = properties;
        this.body = body;
    }

    /** Trusts its arguments: the codec hands over fresh, unshared collections. */
    static DelayedRecord decoded(DelayId id, String topic, String cluster, List<String> keys,
            Map<String, String> properties, byte[] body) {
        return new DelayedRecord(id, topic, cluster, Collections.unmodifiableList(keys),
                Collections.unmodifiableMap(properties), body);
    }

    public static Builder builder() {
        return new Builder();
    }

    public DelayId id() {
        return id;
    }

    /** When the record is due, epoch milliseconds (the same as {@code id().dueAtMillis()}). */
    public long dueAtMillis() {
        return id.dueAtMillis();
    }

    /** The physical topic the record is delivered to. */
    public String topic() {
        return topic;
    }

    /** The cluster the record was sent through; empty when the sender left it to routing. */
    public String cluster() {
        return cluster;
    }

    /** The message keys, in order; unmodifiable. */
    public List<String> keys() {
        return keys;
    }

    /** The message properties, in insertion order; unmodifiable. */
    public Map<String, String> properties() {
        return properties;
    }

    /** A copy of the body. */
    public byte[] body() {
        return body.clone();
    }

    public int bodySize() {
        return body.length;
    }

    byte[] bodyUnsafe() {
        return body;
    }

    /** Same id, target, keys, properties and body. */
    @Override
    public boolean equals(Object o) {
        return o instanceof DelayedRecord r && id.equals(r.id) && topic.equals(r.topic)
                && cluster.equals(r.cluster) && keys.equals(r.keys) && properties.equals(r.properties)
                && Arrays.equals(body, r.body);
    }

    @Override
    public int hashCode() {
        return id.hashCode();
    }

    @Override
    public String toString() {
        return "DelayedRecord[id=" + id + ", topic=" + topic + ", cluster=" + cluster + ", keys=" + keys
                + ", properties=" + properties.size() + ", body=" + body.length + " B]";
    }

    /** Not thread-safe; each setter validates at once. */
    public static final class Builder {

        private DelayId id;
        private Long dueAtMillis;
        private String topic;
        private String cluster = "";
        private final List<String> keys = new ArrayList<>();
        private final Map<String, String> properties = new LinkedHashMap<>();
        private byte[] body = new byte[0];

        private Builder() {
        }

        /** The id; its due time is the record's. Give either this or {@link #dueAt(long)}. */
        public Builder id(DelayId id) {
            this.id = Objects.requireNonNull(id, "id");
            return this;
        }

        /** The due time, epoch milliseconds; the id gets a random nonce. */
        public Builder dueAt(long dueAtMillis) {
            this.dueAtMillis = dueAtMillis;
            return this;
        }

        /** The physical topic and cluster the record is delivered to (cluster may be empty). */
        public Builder target(String topic, String cluster) {
            if (topic == null || topic.isEmpty()) {
                throw new IllegalArgumentException("topic must not be empty");
            }
            this.topic = topic;
            this.cluster = Objects.requireNonNull(cluster, "cluster");
            return this;
        }

        public Builder keys(List<String> keys) {
            for (String key : keys) {
                Objects.requireNonNull(key, "keys must not contain null");
            }
            this.keys.clear();
            this.keys.addAll(keys);
            return this;
        }

        public Builder property(String name, String value) {
            Objects.requireNonNull(name, "property name");
            Objects.requireNonNull(value, () -> "value of property " + name);
            properties.put(name, value);
            return this;
        }

        public Builder properties(Map<String, String> properties) {
            properties.forEach(this::property);
            return this;
        }

        /** The body; copied. */
        public Builder body(byte[] body) {
            this.body = Objects.requireNonNull(body, "body").clone();
            return this;
        }

        /**
         * @throws IllegalStateException if the target or the due time is missing, or the id and
         *                               {@code dueAt} disagree
         */
        public DelayedRecord build() {
            if (topic == null) {
                throw new IllegalStateException("target(topic, cluster) is required");
            }
            DelayId resolved = id;
            if (resolved == null) {
                if (dueAtMillis == null) {
                    throw new IllegalStateException("either id(...) or dueAt(...) is required");
                }
                resolved = DelayId.random(dueAtMillis);
            } else if (dueAtMillis != null && dueAtMillis != resolved.dueAtMillis()) {
                throw new IllegalStateException("dueAt " + dueAtMillis + " disagrees with the due time of id " + resolved
                        + " (" + resolved.dueAtMillis() + ")");
            }
            return new DelayedRecord(resolved, topic, cluster, List.copyOf(keys),
                    Collections.unmodifiableMap(new LinkedHashMap<>(properties)), body);
        }
    }
}

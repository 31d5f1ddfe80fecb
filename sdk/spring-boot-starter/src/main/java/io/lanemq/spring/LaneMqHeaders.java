package io.lanemq.spring;

/**
 * Names for {@code @Header} parameters of {@link LaneMqListener} handler methods that read what the SDK knows of a
 * message rather than a user property. Any other name is a user property of the message ({@code @Header("source")}).
 *
 * <pre>{@code
 * @LaneMqListener(topic = "order-paid", group = "billing")
 * void onPaid(OrderPaid paid, @Header(LaneMqHeaders.MESSAGE_ID) String id,
 *             @Header(LaneMqHeaders.DELIVERY_ATTEMPT) int attempt, @Header(LaneMqHeaders.LANE) Optional<Lane> lane) { ... }
 * }</pre>
 */
public final class LaneMqHeaders {
    private static final String PREFIX = "lanemq_";

    /** {@code String}: the broker-assigned message id. */
    public static final String MESSAGE_ID = PREFIX + "messageId";
    /** {@code List<String>}, or {@code String} for the first key (null when none). */
    public static final String KEYS = PREFIX + "keys";
    /** {@code int}: 1 on the first delivery, 2 on the first retry... */
    public static final String DELIVERY_ATTEMPT = PREFIX + "deliveryAttempt";
    /** {@code Lane} or {@code Optional<Lane>} or {@code String} (its path); absent (empty, null) for the base. */
    public static final String LANE = PREFIX + "lane";
    /** {@code String}: the tag; absent when none. */
    public static final String TAG = PREFIX + "tag";
    /** {@code String}: the sharding key; absent when none. */
    public static final String SHARDING_KEY = PREFIX + "shardingKey";
    /** {@code String}: the logic topic. */
    public static final String LOGIC_TOPIC = PREFIX + "logicTopic";
    /** {@code String}: the cluster the message was consumed from. */
    public static final String CLUSTER = PREFIX + "cluster";
    /** {@code long}: when the producer created the message, epoch milliseconds. */
    public static final String BORN_TIMESTAMP = PREFIX + "bornTimestamp";
    /** {@code boolean}: whether the message is stress-test traffic. */
    public static final String STRESS_TEST = PREFIX + "stressTest";

    private LaneMqHeaders() {
    }
}

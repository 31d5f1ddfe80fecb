package io.lanemq.rocketmq;

import java.util.HashSet;
import java.util.Set;
import org.apache.rocketmq.common.message.MessageConst;

/**
 * Property names RocketMQ itself uses. One set serves both directions: a user property with such a
 * name is refused on send, and such a property is stripped on receipt, so every user property
 * round-trips and no system property leaks to the application.
 *
 * <p>{@link MessageConst#STRING_HASH_SET} is what {@code Message.putUserProperty} refuses, but in
 * 5.3.3 it misses several names the client or broker write themselves (the sharding key, the
 * transaction id, the check counters, the multi-dispatch and trace markers); they are added here.
 *
 * <p>Public for the delay server, which reads the internal topic below the SDK and must tell the
 * sender's properties from RocketMQ's in the same way.
 */
public final class ReservedProperties {
    private static final Set<String> NAMES;

    static {
        Set<String> names = new HashSet<>(MessageConst.STRING_HASH_SET);
        names.add(MessageConst.PROPERTY_SHARDING_KEY);
        names.add(MessageConst.PROPERTY_TRANSACTION_ID);
        names.add(MessageConst.PROPERTY_TRANSACTION_CHECK_TIMES);
        names.add(MessageConst.PROPERTY_CHECK_IMMUNITY_TIME_IN_SECONDS);
        names.add(MessageConst.PROPERTY_INNER_NUM);
        names.add(MessageConst.PROPERTY_INNER_BASE);
        names.add(MessageConst.PROPERTY_FORWARD_QUEUE_ID);
        names.add(MessageConst.PROPERTY_REDIRECT);
        names.add(MessageConst.PROPERTY_INNER_MULTI_DISPATCH);
        names.add(MessageConst.PROPERTY_TRACE_CONTEXT);
        NAMES = Set.copyOf(names);
    }

    private ReservedProperties() {
    }

    public static boolean isReserved(String name) {
        return NAMES.contains(name) || name.startsWith(MessageConst.PROPERTY_TRANSIENT_PREFIX);
    }
}

package io.lanemq.dialtest;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * What a probe exercises on its target broker. The code is the byte carried in probe bodies and ack frames; the
 * label is the {@code kind} tag of every metric.
 *
 * <p>Delayed messages are probed both ways, side by side: RocketMQ's native timer ({@link #DELAYED}) and the
 * project's delay server ({@link #DELAY_SERVER}), which needs a delay server reading the cluster's internal topic.
 */
public enum ProbeKind {
    /** A plain message to one queue of the target broker. */
    NORMAL(1),
    /** A timer message ({@code setDeliverTimeMs}); its latency is measured from the due time, not the send. */
    DELAYED(2),
    /** A transactional message: even sequences commit at once, odd ones are resolved by the broker's check-back. */
    TRANSACTIONAL(3),
    /**
     * A delayed message through the delay server: sent to the internal delay topic on the target broker, held by
     * the delay server, delivered to the probe topic through the SDK when due; its latency counts from the due time.
     */
    DELAY_SERVER(4),
    /**
     * A message to a logic topic through the SDK (a {@code MessagingClient} on the platform configuration), routed by
     * its weights and failover and consumed through the SDK; its lane is the cluster that stored it, so the rows show
     * the split the routing made. Not per broker.
     */
    LOGIC_TOPIC(5),
    /**
     * A harmless change on the probe key of the platform configuration, published by the dial test; its latency is
     * the time until the dial test's own client applied it. Not a message, not per broker.
     */
    CONFIG_PROPAGATION(6);

    private final byte code;
    private final String label;

    ProbeKind(int code) {
        this.code = (byte) code;
        this.label = name().toLowerCase(Locale.ROOT);
    }

    public byte code() {
        return code;
    }

    /** The metric tag value, e.g. {@code normal}. */
    public String label() {
        return label;
    }

    /** The kinds that need nothing but brokers: what is probed unless a delay server is named. */
    public static Set<ProbeKind> brokerKinds() {
        return EnumSet.of(NORMAL, DELAYED, TRANSACTIONAL);
    }

    /** Whether probes of this kind target each broker (sent below the SDK by a {@link ClusterProber}). */
    public boolean perBroker() {
        return this != LOGIC_TOPIC && this != CONFIG_PROPAGATION;
    }

    /** The kind with that code, or null for an unknown code (a newer sender, or garbage). */
    public static ProbeKind ofCode(byte code) {
        for (ProbeKind kind : values()) {
            if (kind.code == code) {
                return kind;
            }
        }
        return null;
    }

    /** Parses a label or name, case-insensitively: {@code normal}, {@code DELAYED}. */
    public static ProbeKind parse(String text) {
        for (ProbeKind kind : values()) {
            if (kind.name().equalsIgnoreCase(text.trim())) {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown probe kind '" + text
            + "', expected one of normal, delayed, transactional, delay_server, logic_topic, config_propagation");
    }
}

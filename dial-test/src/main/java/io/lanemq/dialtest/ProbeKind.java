package io.lanemq.dialtest;

import java.util.Locale;

/**
 * What a probe exercises on its target broker. The code is the byte carried in probe bodies and ack frames; the
 * label is the {@code kind} tag of every metric.
 *
 * <p>Extension point: delayed probes use RocketMQ's native timer ({@link TimerProbeSender}). When the project's
 * delay server exists, it gets its own kind (say {@code DELAYED_SERVER}, code 4) and a {@link ProbeSender} that
 * sends through it, so the report shows both mechanisms side by side, as the issue asks.
 */
public enum ProbeKind {
    /** A plain message to one queue of the target broker. */
    NORMAL(1),
    /** A timer message ({@code setDeliverTimeMs}); its latency is measured from the due time, not the send. */
    DELAYED(2),
    /** A transactional message: even sequences commit at once, odd ones are resolved by the broker's check-back. */
    TRANSACTIONAL(3);

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
        throw new IllegalArgumentException("unknown probe kind '" + text + "', expected one of normal, delayed, transactional");
    }
}

package io.lanemq.delay;

import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The identity of a delayed record: its due time plus a random nonce, 16 bytes in all.
 *
 * <p>The due time is part of the id on purpose: a cancel names only the id, and the due time
 * says which time bucket (segment file) holds the record, so a cancel costs one segment lookup
 * and no heap index of every pending id. The same id scheduled twice (the internal topic
 * re-consumed after a crash) is delivered once: both copies land in the same segment, where the
 * later one is recognised as a duplicate.
 *
 * <p>Immutable and thread-safe. The text form (see {@link #toString()}) is what a
 * {@code SendResult} can carry back to the sender:
 * <pre>{@code
 * DelayId id = DelayId.random(Instant.parse("2030-01-01T00:00:00Z").toEpochMilli());
 * DelayId same = DelayId.parse(id.toString());
 * }</pre>
 *
 * @param dueAtMillis when the record is due, epoch milliseconds
 * @param nonce       distinguishes records due at the same millisecond
 */
public record DelayId(long dueAtMillis, long nonce) {

    /** A new id due at {@code dueAtMillis} with a random nonce. Thread-safe. */
    public static DelayId random(long dueAtMillis) {
        return new DelayId(dueAtMillis, ThreadLocalRandom.current().nextLong());
    }

    /**
     * Parses the text form of {@link #toString()}.
     *
     * @throws IllegalArgumentException if {@code text} is not two 16-digit hex numbers joined by {@code '-'}
     */
    public static DelayId parse(String text) {
        if (text == null || text.length() != 33 || text.charAt(16) != '-') {
            throw new IllegalArgumentException("not a delay id (want 16 hex digits, '-', 16 hex digits): " + text);
        }
        try {
            return new DelayId(Long.parseUnsignedLong(text.substring(0, 16), 16),
                    Long.parseUnsignedLong(text.substring(17), 16));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a delay id (want 16 hex digits, '-', 16 hex digits): " + text, e);
        }
    }

    /** {@code 0000018f2b3c4d5e-9a8b7c6d5e4f3a2b}: due time and nonce, fixed width hex. */
    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%016x-%016x", dueAtMillis, nonce);
    }
}

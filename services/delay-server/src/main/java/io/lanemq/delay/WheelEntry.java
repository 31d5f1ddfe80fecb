package io.lanemq.delay;

/**
 * One loaded record on the wheel: where it is stored and when to fire. About 40 bytes of heap,
 * and only for the near-term buckets. The record itself stays in its segment until it fires,
 * except for a bounded heap copy of records appended into a bucket already loaded.
 */
final class WheelEntry {

    final Segment segment;
    final int ordinal;
    final int offset;
    final long dueAt;
    /** The due time, or later for a retry after a failed delivery. */
    long fireAt;
    int attempts;
    WheelEntry next;
    /** The encoded record, kept for records appended into a loaded bucket (see {@link Segment#MAX_CACHED_BYTES}). */
    byte[] encoded;

    WheelEntry(Segment segment, int ordinal, int offset, long dueAt) {
        this.segment = segment;
        this.ordinal = ordinal;
        this.offset = offset;
        this.dueAt = dueAt;
        this.fireAt = dueAt;
    }
}

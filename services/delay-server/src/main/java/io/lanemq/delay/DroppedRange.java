package io.lanemq.delay;

import java.nio.file.Path;

/**
 * Bytes recovery found unreadable in a segment and left out. The records in them are lost from
 * this store; the server re-reads what was due in {@code [bucketStartMillis, bucketEndMillis)}
 * from the internal topic (whose offsets it commits only once a record is safe).
 *
 * @param segment           the data file
 * @param bucketStartMillis the bucket's first due time, inclusive
 * @param bucketEndMillis   the bucket's end, exclusive
 * @param offset            where the dropped bytes start
 * @param length            how many bytes were dropped
 * @param kind              cut off the end of the file, or skipped in its middle
 * @param reason            what failed: CRC, length, magic, and whether the cut itself succeeded
 */
public record DroppedRange(Path segment, long bucketStartMillis, long bucketEndMillis, long offset, long length,
        Kind kind, String reason) {

    public enum Kind {
        /** A torn or corrupt tail (typical after a machine crash mid-write): truncated. */
        TORN_TAIL,
        /**
         * A corrupt range followed by valid records: skipped; the file is left as it is, so the
         * range is reported again at every start until the segment is deleted.
         */
        CORRUPT
    }
}

package io.lanemq.delay;

import java.time.Duration;
import java.util.List;

/**
 * What opening the store found: every segment's records checked against their CRC32C.
 *
 * @param segments segment files read
 * @param records  valid records found
 * @param pending  of those, not yet delivered or cancelled (a re-consumed duplicate counts until its bucket loads)
 * @param dropped  unreadable ranges, each also logged: empty after a clean shutdown or a plain {@code kill -9}
 * @param took     time to scan the store and load the near-term buckets (build() returns when ready)
 */
public record RecoveryReport(int segments, long records, long pending, List<DroppedRange> dropped, Duration took) {

    public RecoveryReport {
        dropped = List.copyOf(dropped);
    }

    /** True if nothing was dropped. */
    public boolean clean() {
        return dropped.isEmpty();
    }
}

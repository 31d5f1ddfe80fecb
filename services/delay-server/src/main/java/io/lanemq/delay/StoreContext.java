package io.lanemq.delay;

import io.lanemq.support.Ticker;
import java.time.InstantSource;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** What every segment of one store shares: file access, the store-wide counters, health. */
final class StoreContext {

    final FileChannelFactory files;
    final InstantSource clock;
    /** Monotonic: which open segment was used least recently. */
    final Ticker ticker;
    final int maxRecordBytes;
    final Health health;
    final MarkWriter markWriter;
    final SettlementListener listener;
    /** Copies of an id already stored, left unwritten or marked duplicate at load. */
    final AtomicLong duplicates = new AtomicLong();
    /** Records stored and not yet settled (delivered, cancelled or found to be duplicates). */
    final AtomicLong unsettled = new AtomicLong();
    /** Heap copies of records on wheel entries, bounded by {@link Segment#MAX_CACHED_BYTES}. */
    final AtomicLong cachedBytes = new AtomicLong();
    /** Bytes of segment and mark files. */
    final AtomicLong bytes = new AtomicLong();
    /** Segments written since they were last forced; {@link SegmentStore#flush()} forces them. */
    final Set<Segment> dirty = ConcurrentHashMap.newKeySet();
    /** Segments holding open file handles, for the handle budget. */
    final Set<Segment> open = ConcurrentHashMap.newKeySet();
    /**
     * Set when the store closes: a delivery confirmed after that must not reopen a file, which
     * another engine may own by then. Its record stays pending and is delivered again.
     */
    volatile boolean closed;

    StoreContext(FileChannelFactory files, InstantSource clock, Ticker ticker, int maxRecordBytes, Health health,
            SettlementListener listener) {
        this.files = files;
        this.clock = clock;
        this.ticker = ticker;
        this.maxRecordBytes = maxRecordBytes;
        this.health = health;
        this.listener = listener;
        this.markWriter = new MarkWriter(health, listener);
    }
}

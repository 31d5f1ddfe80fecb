package io.lanemq.delay;

import io.lanemq.support.Backoff;
import io.lanemq.support.Ticker;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.HashSet;
import java.util.Objects;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds delayed records on local disk and hands each to a {@link DeliverySink} at its due
 * millisecond. The delay server's engine, without any messaging: the server feeds it from the
 * internal topic and delivers through the SDK.
 *
 * <p><b>Storage.</b> Records are appended to one segment file per due-time bucket (default one
 * minute) with a CRC32C each; a byte per record in a mark file says delivered or cancelled.
 * Buckets not yet near cost a few counters of heap each, however many records they hold.
 * Writes use {@code FileChannel} so a full or read-only disk is an exception from
 * {@link #schedule}, not a crash; reads use mmap. A settled segment is deleted after
 * {@link Builder#settledRetention(Duration)}.
 *
 * <p><b>Scheduling.</b> A bucket is read into a millisecond timing wheel
 * {@link Builder#loadAhead(Duration)} before it starts; the wheel thread
 * ({@code lanemq-delay-<name>-wheel}) calls the sink at the due millisecond, in due order.
 *
 * <p><b>Delivery semantics.</b> At least once. A record is marked delivered only after the
 * sink's future completes; a crash in between means one more delivery after restart. A record
 * scheduled twice with the same id is delivered once while the first copy is stored.
 *
 * <p><b>Durability.</b> What {@link #schedule} accepted is in the page cache: it survives
 * {@code kill -9}, not a power loss ({@link #flush()} forces it, for a caller that must survive
 * one on this disk alone; the server instead relies on the internal topic, whose offset it commits
 * only once a record is settled). What settles a record is forced before anyone hears of it: the
 * settlement listener is told of a delivery once its mark is forced (grouped: one force per
 * segment per batch of marks), of a cancel once its record and mark are; {@link #cancel} returns
 * {@link CancelResult#CANCELLED} only after that force. A graceful {@link #close()} forces everything.
 *
 * <p>Thread-safe. {@link #close()} stops firing, waits up to the shutdown grace for deliveries
 * under way, and closes the files.
 *
 * <pre>{@code
 * try (DelayEngine engine = DelayEngine.builder()
 *         .directory(Path.of("/var/lib/lanemq/delay/cluster-a"))
 *         .sink(record -> producer.sendAsync(toMessage(record)))
 *         .build()) {
 *     engine.recoveryReport().dropped().forEach(range -> reread(range));
 *     engine.schedule(DelayedRecord.builder().dueAt(dueAt).target("order_paid", "cluster-a").body(body).build());
 *     CancelResult result = engine.cancel(id);
 * }
 * }</pre>
 */
public final class DelayEngine implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(DelayEngine.class);

    private final String name;
    private final InstantSource clock;
    private final long maxDelayMillis;
    private final Duration maxDelay;
    private final long shutdownGraceMillis;
    private final Health health;
    private final SegmentStore store;
    private final StoreContext ctx;
    private final Dispatcher dispatcher;
    private final Loader loader;
    private final RecoveryReport report;
    /** Read: schedule and cancel; write: close, so close never cuts a write in half. */
    private final ReadWriteLock lifecycle = new ReentrantReadWriteLock();
    /** Cancelled by {@link #cancelUnflushed}, not yet forced nor reported; also the lock of {@link #flushCancels}. */
    private final Queue<DelayId> unflushedCancels = new ConcurrentLinkedQueue<>();
    private boolean closed;

    private DelayEngine(Builder b) throws DelayStoreException {
        long began = b.ticker.read();
        this.name = b.name;
        this.clock = b.clock;
        this.maxDelay = b.maxDelay;
        this.maxDelayMillis = b.maxDelay.toMillis();
        this.shutdownGraceMillis = b.shutdownGrace.toMillis();
        this.health = new Health();
        this.ctx = new StoreContext(b.files, b.clock, b.ticker, b.maxRecordBytes, health, b.listener);
        List<DroppedRange> dropped = new ArrayList<>();
        try {
            this.store = SegmentStore.open(b.directory, b.bucketSpan.toMillis(), ctx, dropped);
        } catch (IOException e) {
            throw new DelayStoreException("could not open the delay store in " + b.directory + ": " + e, e);
        }
        this.dispatcher = new Dispatcher(clock, b.sink, Backoff.exact(b.retryInitial, b.retryMax),
                health);
        this.loader = new Loader(store, dispatcher, clock, health, b.loadAhead.toMillis(),
                b.settledRetention.toMillis(), b.maxOpenSegments);
        loader.runOnce();
        this.report = new RecoveryReport(store.segmentCount(), store.totalRecords(), ctx.unsettled.get(), dropped,
                Duration.ofNanos(b.ticker.read() - began));
        dispatcher.start("lanemq-delay-" + name + "-wheel");
        loader.start("lanemq-delay-" + name + "-loader");
        ctx.markWriter.start("lanemq-delay-" + name + "-marks");
        log.info("Delay engine {} ready in {} ms: {} segments, {} pending, {} bytes, {} dropped ranges [dir={}]", name,
                report.took().toMillis(), report.segments(), report.pending(), ctx.bytes.get(), dropped.size(),
                b.directory);
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Stores {@code record} and schedules it for its due time; a due time in the past is
     * delivered at once. When this returns the record survives a crash of this process.
     * Scheduling an id that is already stored has no further effect once its bucket is loaded,
     * and is delivered once in any case.
     *
     * @return whether it was stored or found to be a copy of a stored id (pending or settled)
     *
     * @throws DelayRejectedException the due time is more than the maximum delay ahead, or the record is too large
     * @throws DelayStoreException    the disk refused the write (full, read-only): the record is not stored
     * @throws IllegalStateException  the engine is closed
     */
    public ScheduleOutcome schedule(DelayedRecord record) throws DelayRejectedException, DelayStoreException {
        Objects.requireNonNull(record, "record");
        lifecycle.readLock().lock();
        try {
            ensureOpen();
            long delay = record.dueAtMillis() - clock.millis();
            if (delay > maxDelayMillis) {
                throw new DelayRejectedException("delay of " + Duration.ofMillis(delay) + " exceeds maxDelay " + maxDelay
                        + " [id=" + record.id() + ", topic=" + record.topic() + ", dueAt="
                        + Instant.ofEpochMilli(record.dueAtMillis()) + "]");
            }
            Segment.Appended appended = store.append(record);
            if (appended.entry() != null) {
                dispatcher.submit(appended.entry());
            }
            return switch (appended.outcome()) {
                case DUPLICATE_PENDING -> ScheduleOutcome.DUPLICATE_PENDING;
                case DUPLICATE_SETTLED -> ScheduleOutcome.DUPLICATE_SETTLED;
                default -> ScheduleOutcome.STORED;
            };
        } finally {
            lifecycle.readLock().unlock();
        }
    }

    /**
     * Cancels the record with {@code id}. A cancelled record is never delivered; the cancel is
     * durable when this returns {@link CancelResult#CANCELLED}: the record and its mark are forced
     * to the device (one force of its bucket's files) before the settlement listener hears of it and
     * before this returns. To cancel many at the price of one force each bucket, see
     * {@link #cancelUnflushed} and {@link #flushCancels}.
     *
     * @throws DelayStoreException  the cancel could not be written or forced; the record stays scheduled, or is
     *                              cancelled but not yet known to be on the device (a power loss may undo it)
     * @throws IllegalStateException the engine is closed
     */
    public CancelResult cancel(DelayId id) throws DelayStoreException {
        Objects.requireNonNull(id, "id");
        return whileOpen(() -> {
            CancelResult result = store.cancel(id);
            if (result == CancelResult.CANCELLED) {
                try {
                    store.force(id);
                } catch (IOException e) {
                    throw forceFailed(e);
                }
                MarkWriter.notifySettled(ctx.listener, id);
            }
            return result;
        });
    }

    /**
     * Cancels as {@link #cancel} does, in memory and in the page cache (a {@code kill -9} keeps it),
     * but leaves the force to the next {@link #flushCancels()}: the settlement listener hears of a
     * cancel only after that flush. The server cancels a whole pull this way and answers after one
     * flush. Until then a power loss may undo the cancel, so do not tell anyone it was cancelled
     * (nor commit past the request) before {@link #flushCancels()} returned.
     *
     * @throws DelayStoreException  the cancel could not be written; the record stays scheduled
     * @throws IllegalStateException the engine is closed
     */
    public CancelResult cancelUnflushed(DelayId id) throws DelayStoreException {
        Objects.requireNonNull(id, "id");
        return whileOpen(() -> {
            CancelResult result = store.cancel(id);
            if (result == CancelResult.CANCELLED) {
                unflushedCancels.add(id);
            }
            return result;
        });
    }

    /**
     * Forces the records and marks of every {@link #cancelUnflushed} made before this call (one force
     * per bucket involved, whatever the number of cancels), then reports them to the settlement
     * listener. Calls are serialised, so a cancel is reported by exactly one of them.
     *
     * @throws DelayStoreException  a force failed: nothing is reported, the next call tries again
     * @throws IllegalStateException the engine is closed
     */
    public void flushCancels() throws DelayStoreException {
        whileOpen(() -> {
            synchronized (unflushedCancels) {
                List<DelayId> ids = new ArrayList<>();
                for (DelayId id = unflushedCancels.poll(); id != null; id = unflushedCancels.poll()) {
                    ids.add(id);
                }
                if (ids.isEmpty()) {
                    return null;
                }
                try {
                    Set<Long> buckets = new HashSet<>();
                    for (DelayId id : ids) {
                        if (buckets.add(store.bucketStart(id.dueAtMillis()))) {
                            store.force(id);
                        }
                    }
                } catch (IOException e) {
                    unflushedCancels.addAll(ids);
                    throw forceFailed(e);
                }
                ids.forEach(id -> MarkWriter.notifySettled(ctx.listener, id));
                return null;
            }
        });
    }

    private DelayStoreException forceFailed(IOException e) {
        health.error("force failed: " + e);
        return new DelayStoreException("could not force a cancel to the device: " + e, e);
    }

    /**
     * The records among {@code ids} that are stored and pending (not being delivered, not settled),
     * read back from the store: what the server re-enqueues upstream. One walk per bucket involved.
     *
     * @throws DelayStoreException  a segment could not be read
     * @throws IllegalStateException the engine is closed
     */
    public Map<DelayId, DelayedRecord> readPending(Collection<DelayId> ids) throws DelayStoreException {
        Objects.requireNonNull(ids, "ids");
        return whileOpen(() -> store.readPending(ids));
    }

    /**
     * Drops the pending records {@code ids} without delivering them, because another server now
     * owns their upstream copies (the server calls this for the queues a rebalance took away). A
     * copy of the same id scheduled later is stored afresh and delivered. Records being delivered
     * or already settled are left as they are; the settlement listener is not told.
     *
     * @return how many stored copies were dropped
     * @throws DelayStoreException  a mark could not be written (the records stay pending)
     * @throws IllegalStateException the engine is closed
     */
    public int relinquish(Collection<DelayId> ids) throws DelayStoreException {
        Objects.requireNonNull(ids, "ids");
        return whileOpen(() -> store.relinquish(ids));
    }

    /**
     * Hands every id stored here (settled ones too, while their segment is kept) with the state of
     * its first copy to {@code visitor}: one walk of each segment, a few MB of heap at a time,
     * whatever the store's size. The server checks a ledger checkpoint against it: an id the
     * checkpoint holds but the store does not know means the checkpoint belongs to another store.
     * States are read segment by segment, so an id may settle after it was visited as pending; the
     * settlement listener reports that as usual.
     *
     * @return how many ids were visited
     * @throws DelayStoreException  a segment could not be read
     * @throws IllegalStateException the engine is closed
     */
    public long forEachRecord(RecordStateVisitor visitor) throws DelayStoreException {
        Objects.requireNonNull(visitor, "visitor");
        return whileOpen(() -> store.forEachRecord(visitor));
    }

    /** Copies of an already stored id that were not stored again (or were dropped at load), since this engine opened. */
    public long duplicatesSkipped() {
        return ctx.duplicates.get();
    }

    /** Records stored and not yet delivered or cancelled. */
    public long pendingCount() {
        return ctx.unsettled.get();
    }

    /** Bytes of the store's segment and mark files. */
    public long storeBytes() {
        return ctx.bytes.get();
    }

    /** What opening the store found; see {@link RecoveryReport#dropped()} for records to re-read upstream. */
    public RecoveryReport recoveryReport() {
        return report;
    }

    public StoreHealth health() {
        return health.snapshot();
    }

    /** What the store does for a caller while the engine is open. */
    @FunctionalInterface
    private interface StoreCall<T> {
        T call() throws DelayStoreException;
    }

    /** Runs {@code call} under the lifecycle's read lock, so {@link #close()} waits for it; fails if closed. */
    private <T> T whileOpen(StoreCall<T> call) throws DelayStoreException {
        lifecycle.readLock().lock();
        try {
            ensureOpen();
            return call.call();
        } finally {
            lifecycle.readLock().unlock();
        }
    }

    /** Forces every record and mark written since the last force to the device (fsync), one force per file. */
    public void flush() throws DelayStoreException {
        lifecycle.readLock().lock();
        try {
            ensureOpen();
            store.flush();
        } catch (IOException e) {
            health.error("flush failed: " + e);
            throw new DelayStoreException("could not flush the delay store: " + e, e);
        } finally {
            lifecycle.readLock().unlock();
        }
    }

    /**
     * Stops firing, waits up to the shutdown grace for deliveries under way to be confirmed
     * (any left are delivered again after restart), and closes the store. Idempotent.
     */
    @Override
    public void close() {
        shutDown(true);
    }

    /** For tests: stop as a {@code kill -9} would, with no grace for deliveries under way. */
    void abandon() {
        shutDown(false);
    }

    private void shutDown(boolean graceful) {
        lifecycle.writeLock().lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            loader.stop();
            dispatcher.stop();
            if (graceful && !dispatcher.awaitInFlight(shutdownGraceMillis)) {
                log.warn("Delay engine {} closed with deliveries unconfirmed after {} ms; they are delivered again "
                        + "after restart", name, shutdownGraceMillis);
            }
            ctx.markWriter.stop(graceful);
            if (graceful) {
                flushOnClose();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            store.close();
            lifecycle.writeLock().unlock();
        }
    }

    /** A graceful stop leaves everything on the device, and reports cancels left unflushed. */
    private void flushOnClose() {
        try {
            store.flush();
            for (DelayId id = unflushedCancels.poll(); id != null; id = unflushedCancels.poll()) {
                MarkWriter.notifySettled(ctx.listener, id);
            }
        } catch (IOException e) {
            health.error("flush at close failed: " + e);
            log.warn("Delay engine {} could not force its store at close; a power loss now may undo recent cancels "
                    + "and redeliver recent deliveries: {}", name, e.toString());
        }
    }

    /**
     * For tests: wakes the loader and wheel threads, waits until each has run a full cycle that
     * began after this call, then until the marks of what they delivered are written.
     */
    void awaitCycles() throws InterruptedException {
        if (!loader.cycles.awaitNext(loader::wake, TimeUnit.SECONDS.toMillis(10))
                || !dispatcher.cycles.awaitNext(dispatcher::wake, TimeUnit.SECONDS.toMillis(10))
                || !ctx.markWriter.awaitWritten(TimeUnit.SECONDS.toMillis(10))) {
            throw new IllegalStateException("engine threads did not complete a cycle within 10 s");
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("delay engine " + name + " is closed");
        }
    }

    /**
     * Settings; each setter validates at once and names the setting in its message. Not thread-safe.
     * {@code directory} and {@code sink} are required.
     */
    public static final class Builder {

        private Path directory;
        private DeliverySink sink;
        private SettlementListener listener = SettlementListener.NONE;
        private String name = "default";
        private Duration bucketSpan = Duration.ofMinutes(1);
        private Duration maxDelay = Duration.ofDays(2 * 366);
        private Duration loadAhead = Duration.ofSeconds(30);
        private Duration settledRetention = Duration.ofMinutes(10);
        private Duration retryInitial = Duration.ofSeconds(1);
        private Duration retryMax = Duration.ofMinutes(1);
        private Duration shutdownGrace = Duration.ofSeconds(5);
        private int maxRecordBytes = (4 << 20) + (64 << 10);
        private int maxOpenSegments = 1024;
        private InstantSource clock = InstantSource.system();
        private Ticker ticker = Ticker.system();
        private FileChannelFactory files = FileChannelFactory.SYSTEM;

        private Builder() {
        }

        /** The store's directory, created if missing; one engine at a time may open it. */
        public Builder directory(Path directory) {
            this.directory = Objects.requireNonNull(directory, "directory");
            return this;
        }

        /** Where due records go. */
        public Builder sink(DeliverySink sink) {
            this.sink = Objects.requireNonNull(sink, "sink");
            return this;
        }

        /** Told when each record is settled (delivered and marked, or cancelled); default none. */
        public Builder settlementListener(SettlementListener listener) {
            this.listener = Objects.requireNonNull(listener, "listener");
            return this;
        }

        /** Names the engine's threads and log lines ({@code lanemq-delay-<name>-wheel}); default {@code default}. */
        public Builder name(String name) {
            if (name == null || !name.matches("[A-Za-z0-9._-]{1,40}")) {
                throw new IllegalArgumentException("name must be 1-40 letters, digits, '.', '_' or '-': " + name);
            }
            this.name = name;
            return this;
        }

        /**
         * How much due time one segment file covers; default one minute. A directory keeps the
         * span it was created with. Shorter means smaller loads and more files.
         */
        public Builder bucketSpan(Duration bucketSpan) {
            requireBetween("bucketSpan", bucketSpan, Duration.ofSeconds(1), Duration.ofDays(1));
            this.bucketSpan = bucketSpan;
            return this;
        }

        /** Records due further ahead than this are rejected; default two years (732 days). */
        public Builder maxDelay(Duration maxDelay) {
            requireBetween("maxDelay", maxDelay, Duration.ofMillis(1), Duration.ofDays(100 * 366));
            this.maxDelay = maxDelay;
            return this;
        }

        /** How long before its start a bucket is read into the wheel; default 30 s. */
        public Builder loadAhead(Duration loadAhead) {
            requireBetween("loadAhead", loadAhead, Duration.ZERO, Duration.ofDays(1));
            this.loadAhead = loadAhead;
            return this;
        }

        /**
         * How long a segment whose records are all settled is kept before it is deleted, so that
         * a late cancel still gets {@link CancelResult#ALREADY_DELIVERED} and a re-consumed copy
         * is still recognised as a duplicate; default 10 minutes.
         */
        public Builder settledRetention(Duration settledRetention) {
            requireBetween("settledRetention", settledRetention, Duration.ZERO, Duration.ofDays(30));
            this.settledRetention = settledRetention;
            return this;
        }

        /** Redelivery after a failed delivery: {@code initial}, doubling, capped at {@code max}; default 1 s to 1 min. */
        public Builder retryBackoff(Duration initial, Duration max) {
            requireBetween("retryBackoff initial", initial, Duration.ofMillis(1), Duration.ofHours(1));
            requireBetween("retryBackoff max", max, initial, Duration.ofDays(1));
            this.retryInitial = initial;
            this.retryMax = max;
            return this;
        }

        /** How long {@link #close()} waits for deliveries under way; default 5 s. */
        public Builder shutdownGrace(Duration shutdownGrace) {
            requireBetween("shutdownGrace", shutdownGrace, Duration.ZERO, Duration.ofMinutes(10));
            this.shutdownGrace = shutdownGrace;
            return this;
        }

        /** The largest encoded record accepted; default 4 MiB + 64 KiB (RocketMQ's body limit plus headers). */
        public Builder maxRecordBytes(int maxRecordBytes) {
            if (maxRecordBytes < RecordCodec.MIN_LENGTH || maxRecordBytes > 256 << 20) {
                throw new IllegalArgumentException("maxRecordBytes must be between " + RecordCodec.MIN_LENGTH
                        + " and " + (256 << 20) + ": " + maxRecordBytes);
            }
            this.maxRecordBytes = maxRecordBytes;
            return this;
        }

        /** Segments that may hold open file handles at once (the least recently used are closed); default 1024. */
        public Builder maxOpenSegments(int maxOpenSegments) {
            if (maxOpenSegments < 4) {
                throw new IllegalArgumentException("maxOpenSegments must be at least 4: " + maxOpenSegments);
            }
            this.maxOpenSegments = maxOpenSegments;
            return this;
        }

        /**
         * The wall clock due times are measured against; default {@link InstantSource#system()}. Due times are absolute
         * instants, so this is a wall clock; the engine re-reads it after every wait and never trusts a wait alone, so a
         * clock that jumps (NTP, a test) is handled.
         */
        public Builder clock(InstantSource clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** The monotonic clock for durations (recovery time, which open segment was used last); default {@link Ticker#system()}. */
        public Builder ticker(Ticker ticker) {
            this.ticker = Objects.requireNonNull(ticker, "ticker");
            return this;
        }

        /** For tests: how the store opens files. */
        Builder files(FileChannelFactory files) {
            this.files = Objects.requireNonNull(files, "files");
            return this;
        }

        /**
         * Opens the directory, recovers it (checking every record's CRC), loads the buckets due
         * within {@code loadAhead}, and starts the engine's threads.
         *
         * @throws IllegalStateException a required setting is missing, or the directory was created with another bucket span
         * @throws DelayStoreException   the directory cannot be opened (permissions, in use by another engine)
         */
        public DelayEngine build() throws DelayStoreException {
            if (directory == null) {
                throw new IllegalStateException("directory(...) is required");
            }
            if (sink == null) {
                throw new IllegalStateException("sink(...) is required");
            }
            return new DelayEngine(this);
        }

        private static void requireBetween(String setting, Duration value, Duration min, Duration max) {
            Objects.requireNonNull(value, setting);
            if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
                throw new IllegalArgumentException(setting + " must be between " + min + " and " + max + ": " + value);
            }
        }
    }
}

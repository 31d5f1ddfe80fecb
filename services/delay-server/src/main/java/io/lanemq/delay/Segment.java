package io.lanemq.delay;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One due-time bucket: an append-only data file of records plus its {@link MarkFile}.
 * Hand-written on purpose: this store is the product.
 *
 * <p><b>Writes go through {@code FileChannel}, reads through {@code mmap}.</b> A store that
 * appends by writing into a mapping gets no error when the disk is full or the device turned
 * read-only: the kernel raises SIGBUS on the page fault, which the JVM either turns into an
 * asynchronous {@code InternalError} or dies of (RocketMQ #8403, #9694 added FileChannel
 * fallbacks for exactly this). A positional {@code write} fails with an {@code IOException} on
 * the call that tried, before the record is acknowledged, and the cost is one syscall and a
 * memcpy of ~370 bytes into the page cache. Reads of what was written are where mmap pays:
 * loading a bucket walks its headers in place, firing decodes a record without a syscall. If
 * mapping fails (address space, {@code vm.max_map_count}) the segment is read into the heap
 * instead. A {@code kill -9} loses nothing written either way: the page cache survives it.
 *
 * <p><b>Heap.</b> Until its bucket is loaded a segment is a few counters: no per-record object.
 * Loading (shortly before the bucket is due) reads the marks into a byte per record and indexes
 * ids for cancel and duplicate detection, and yields a {@link WheelEntry} per pending record.
 *
 * <p><b>Duplicates.</b> An id's due time picks its segment, so a record scheduled twice (the
 * internal topic re-consumed after a crash) has both copies here; the first decides, the others
 * are marked {@link MarkFile#DUPLICATE} at load, or not written at all once loaded.
 *
 * <p><b>Threads.</b> Appends, loads, cancels and mark writes hold the segment's monitor. What
 * the wheel thread does when firing (claim, read, settle) takes no lock at all: a thread
 * holding the monitor may be stalled in a write by kernel writeback, and firing must not wait
 * for it.
 */
final class Segment {

    /** In memory only: handed to the sink, not yet confirmed. Persisted state stays pending. */
    static final byte IN_FLIGHT = 4;
    /** In memory only: a cancel is writing its mark; the wheel tries again a millisecond later. */
    static final byte CANCELLING = 5;
    /** Offsets are ints (mappings are at most 2 GiB). */
    static final long MAX_BYTES = Integer.MAX_VALUE;
    /** Past the mapped view, read the tail with a syscall until this much more is worth a remap. */
    private static final long REMAP_STEP = 4 << 20;
    /** When mapping fails (address space, map count), a segment up to this size is read into the heap instead. */
    private static final long HEAP_FALLBACK_MAX = 256 << 20;
    /**
     * Records appended into a loaded bucket keep a heap copy on their wheel entry up to this many
     * bytes in all, so firing them reads neither the file nor a lock-guarded mapping.
     */
    static final long MAX_CACHED_BYTES = 64 << 20;

    /** What the wheel may do with an entry. */
    enum Claim { CLAIMED, SKIP, LATER }

    final long start;
    final long end;
    final Path dataPath;
    private final MarkFile marks;
    private final StoreContext ctx;

    // Guarded by this.
    private FileChannel data;
    private long size;
    private int nextOrdinal;
    private int records;
    private long marksLength;
    private Map<DelayId, Integer> firstOrdinal;
    private boolean registeredOpen;
    /** Written since the last {@link #force()}: what a power loss could still take. */
    private boolean dataDirty;
    private boolean marksDirty;
    /** Whether the data and marks files' names are known durable (their directory forced since they were created). */
    private boolean dataNamed;
    private boolean marksNamed;
    /** Corrupt ranges recovery skipped, as [from, to) pairs: walks jump over them. */
    private final long[] skips;

    // Read without the lock.
    private final AtomicInteger unsettled;
    private volatile long idleSince;
    private volatile boolean deleted;
    /** Non-null once loaded. */
    private volatile StateTable states;
    /** Read-only contents up to some size: a mapping, or a heap copy if mapping failed. */
    private volatile ByteBuffer view;
    volatile long lastUsedNanos;

    Segment(long start, long end, Path dataPath, Path marksPath, StoreContext ctx, Recovered recovered,
            boolean loadNow, long now) {
        this.start = start;
        this.end = end;
        this.dataPath = dataPath;
        this.marks = new MarkFile(marksPath, ctx.files);
        this.ctx = ctx;
        this.size = recovered.size;
        this.nextOrdinal = recovered.nextOrdinal;
        this.records = recovered.records;
        this.unsettled = new AtomicInteger(recovered.unsettled);
        this.marksLength = recovered.marksLength;
        this.skips = recovered.skips;
        this.idleSince = now;
        // Recovered files were found by name, so their names are durable; a marks file may still be created later.
        this.dataNamed = recovered != Recovered.EMPTY;
        this.marksNamed = recovered != Recovered.EMPTY && recovered.marksLength > 0;
        if (loadNow) {
            // A new bucket already inside the load horizon: nothing on disk to read.
            this.firstOrdinal = new HashMap<>();
            this.states = new StateTable(new byte[0]);
        }
        ctx.unsettled.addAndGet(recovered.unsettled);
        ctx.bytes.addAndGet(size + marksLength);
    }

    /** What recovery found on disk; {@link #EMPTY} for a new segment. */
    record Recovered(long size, int nextOrdinal, int records, int unsettled, long marksLength, long[] skips) {
        static final Recovered EMPTY = new Recovered(0, 0, 0, 0, 0, new long[0]);
    }

    /** The outcome of an append: stored (with a wheel entry when the bucket is loaded), or not. */
    record Appended(Outcome outcome, WheelEntry entry) {
        enum Outcome { STORED, DUPLICATE_PENDING, DUPLICATE_SETTLED, SEGMENT_GONE }

        static final Appended STORED_ON_DISK = new Appended(Outcome.STORED, null);
        static final Appended DUPLICATE_PENDING = new Appended(Outcome.DUPLICATE_PENDING, null);
        static final Appended DUPLICATE_SETTLED = new Appended(Outcome.DUPLICATE_SETTLED, null);
        static final Appended GONE = new Appended(Outcome.SEGMENT_GONE, null);
    }

    /** Appends one encoded record ({@link RecordCodec#encode}, not yet sealed; a heap buffer). */
    synchronized Appended append(ByteBuffer encoded, DelayId id) throws IOException {
        if (deleted) {
            return Appended.GONE;
        }
        boolean loaded = states != null;
        if (loaded) {
            Integer first = firstOrdinal.get(id);
            if (first != null) {
                ctx.duplicates.incrementAndGet();
                byte state = states.get(first);
                return state == MarkFile.DELIVERED || state == MarkFile.CANCELLED
                        ? Appended.DUPLICATE_SETTLED : Appended.DUPLICATE_PENDING;
            }
        }
        int length = encoded.remaining();
        if (size + length > MAX_BYTES) {
            throw new IOException("segment " + dataPath.getFileName() + " would pass 2 GiB; use a shorter bucket span");
        }
        int ordinal = nextOrdinal;
        RecordCodec.seal(encoded, ordinal);
        FileChannel ch = data();
        long at = size;
        try {
            while (encoded.hasRemaining()) {
                ch.write(encoded, at + encoded.position());
            }
        } catch (IOException e) {
            cutBackTo(ch, at);
            dirty(true);
            throw e;
        }
        size += length;
        dirty(true);
        nextOrdinal++;
        records++;
        unsettled.incrementAndGet();
        ctx.unsettled.incrementAndGet();
        ctx.bytes.addAndGet(length);
        if (!loaded) {
            return Appended.STORED_ON_DISK;
        }
        states.ensure(ordinal);
        firstOrdinal.put(id, ordinal);
        WheelEntry entry = new WheelEntry(this, ordinal, (int) at, id.dueAtMillis());
        if (ctx.cachedBytes.addAndGet(length) <= MAX_CACHED_BYTES) {
            entry.encoded = Arrays.copyOf(encoded.array(), length);
        } else {
            ctx.cachedBytes.addAndGet(-length);
        }
        return new Appended(Appended.Outcome.STORED, entry);
    }

    /** A partial record must not stay where the next append or recovery would find it. */
    private static void cutBackTo(FileChannel ch, long at) {
        try {
            ch.truncate(at);
        } catch (IOException | RuntimeException ignored) {
            // The next append overwrites from the same offset; failing that, recovery cuts a torn tail.
        }
    }

    /**
     * Loads the bucket: marks into memory, ids indexed, duplicates marked; returns an entry per
     * pending record. Holds the monitor throughout so an append either precedes the walk (and is
     * in it) or follows it (and sees the bucket loaded).
     */
    synchronized List<WheelEntry> load() throws IOException {
        if (states != null || deleted) {
            return List.of();
        }
        ensureStoreOpen();
        byte[] persisted = marks.readAll(nextOrdinal);
        Map<DelayId, Integer> first = new HashMap<>(Math.max(16, records * 4 / 3 + 1));
        List<WheelEntry> entries = new ArrayList<>(unsettled.get());
        ByteBuffer v = size == 0 ? null : contents();
        List<Integer> duplicates = new ArrayList<>();
        List<DelayId> settledDuplicates = new ArrayList<>();
        walk(v, (pos, ordinal, due, nonce) -> {
            if (persisted[ordinal] == MarkFile.DUPLICATE) {
                return true; // a copy that never decides: a duplicate, or relinquished to another server
            }
            DelayId id = new DelayId(due, nonce);
            Integer earlier = first.putIfAbsent(id, ordinal);
            if (earlier != null) {
                if (persisted[ordinal] == MarkFile.PENDING) {
                    duplicates.add(ordinal);
                    if (persisted[earlier] != MarkFile.PENDING) {
                        settledDuplicates.add(id); // appended unloaded: its caller still waits to hear
                    }
                }
            } else if (persisted[ordinal] == MarkFile.PENDING) {
                entries.add(new WheelEntry(this, ordinal, pos, due));
            }
            return true;
        });
        for (int ordinal : duplicates) {
            persisted[ordinal] = MarkFile.DUPLICATE;
            persistQuietly(ordinal, MarkFile.DUPLICATE);
            settledOne();
            ctx.duplicates.incrementAndGet();
        }
        for (DelayId id : settledDuplicates) {
            MarkWriter.notifySettled(ctx.listener, id);
        }
        firstOrdinal = first;
        view = v;
        states = new StateTable(persisted); // published last: lock-free readers see a complete table
        touch();
        return entries;
    }

    /** Claims a pending record for delivery. Lock-free. */
    Claim beginDelivery(int ordinal) {
        StateTable st = states;
        if (st == null || deleted) {
            return Claim.SKIP;
        }
        while (true) {
            byte state = st.get(ordinal);
            if (state == MarkFile.PENDING) {
                if (st.compareAndSet(ordinal, MarkFile.PENDING, IN_FLIGHT)) {
                    return Claim.CLAIMED;
                }
            } else {
                return state == CANCELLING ? Claim.LATER : Claim.SKIP;
            }
        }
    }

    /** The sink confirmed: settled now, its mark written shortly by the {@link MarkWriter}. Lock-free. */
    void delivered(int ordinal, DelayId id) {
        StateTable st = states;
        if (st != null && st.compareAndSet(ordinal, IN_FLIGHT, MarkFile.DELIVERED)) {
            settledOne();
            ctx.markWriter.delivered(this, ordinal, id);
        }
    }

    /** The sink failed or the record could not be read: pending again, for a retry. Lock-free. */
    void deliveryFailed(int ordinal) {
        StateTable st = states;
        if (st != null) {
            st.compareAndSet(ordinal, IN_FLIGHT, MarkFile.PENDING);
        }
    }

    /** Called by the {@link MarkWriter}. */
    synchronized void persistDelivered(int ordinal) throws IOException {
        if (!deleted) {
            writeMark(ordinal, MarkFile.DELIVERED);
        }
    }

    /** Lets go of an entry's heap copy, if it has one. */
    void dropCached(WheelEntry e) {
        byte[] cached = e.encoded;
        if (cached != null) {
            e.encoded = null;
            ctx.cachedBytes.addAndGet(-cached.length);
        }
    }

    /** Decodes an entry's record: from its heap copy, the mapping, or (a fresh tail) with a read. */
    DelayedRecord read(WheelEntry e) throws IOException {
        byte[] cached = e.encoded;
        if (cached != null) {
            dropCached(e);
            return RecordCodec.decode(ByteBuffer.wrap(cached), 0);
        }
        int offset = e.offset;
        ByteBuffer v = view;
        if (covers(v, offset)) {
            return RecordCodec.decode(v, offset);
        }
        synchronized (this) {
            if (deleted) {
                throw new IOException("segment " + dataPath.getFileName() + " was deleted");
            }
            v = view;
            if (!covers(v, offset)) {
                // A fresh tail (or a bucket created loaded, never mapped) is read with a syscall
                // until enough has been added to make a new mapping worth it.
                if (size - (v == null ? 0 : v.capacity()) < REMAP_STEP) {
                    return RecordCodec.decode(readFromChannel(offset), 0);
                }
                v = contents();
                view = v;
            }
            touch();
        }
        return RecordCodec.decode(v, offset);
    }

    private static boolean covers(ByteBuffer v, int offset) {
        return v != null && offset + 8 <= v.capacity() && offset + RecordCodec.length(v, offset) <= v.capacity();
    }

    private ByteBuffer readFromChannel(int offset) throws IOException {
        ByteBuffer header = ByteBuffer.allocate(8);
        readFully(header, offset);
        ByteBuffer whole = ByteBuffer.allocate(header.getInt(4));
        readFully(whole, offset);
        return whole;
    }

    private void readFully(ByteBuffer dst, long at) throws IOException {
        FileChannel ch = data();
        while (dst.hasRemaining()) {
            if (ch.read(dst, at + dst.position()) < 0) {
                throw new EOFException("record at " + at + " runs past the end of " + dataPath);
            }
        }
    }

    /** Cancels the first record with {@code id}: the id's first copy decides for all of them. */
    synchronized CancelResult cancel(DelayId id) throws IOException {
        if (deleted) {
            return CancelResult.UNKNOWN;
        }
        ensureStoreOpen();
        StateTable st = states;
        if (st == null) {
            return cancelOnDisk(id);
        }
        Integer found = firstOrdinal.get(id);
        if (found == null) {
            return CancelResult.UNKNOWN;
        }
        int ordinal = found;
        if (st.compareAndSet(ordinal, MarkFile.PENDING, CANCELLING)) {
            try {
                writeMark(ordinal, MarkFile.CANCELLED);
            } catch (IOException e) {
                st.set(ordinal, MarkFile.PENDING);
                throw e;
            }
            st.set(ordinal, MarkFile.CANCELLED);
            settledOne();
            return CancelResult.CANCELLED;
        }
        return answer(st.get(ordinal), id);
    }

    private CancelResult cancelOnDisk(DelayId id) throws IOException {
        int ordinal = findOnDisk(id);
        if (ordinal < 0) {
            return CancelResult.UNKNOWN;
        }
        byte state = marks.read(ordinal);
        touch();
        if (state != MarkFile.PENDING) {
            return answer(state, id);
        }
        writeMark(ordinal, MarkFile.CANCELLED);
        settledOne();
        return CancelResult.CANCELLED;
    }

    private CancelResult answer(byte state, DelayId id) {
        switch (state) {
            case IN_FLIGHT:
            case MarkFile.DELIVERED:
                return CancelResult.ALREADY_DELIVERED;
            case MarkFile.CANCELLED:
                return CancelResult.ALREADY_CANCELLED;
            default:
                throw new IllegalStateException("first copy of " + id + " has state " + state + " in " + dataPath);
        }
    }

    private int findOnDisk(DelayId id) throws IOException {
        if (size == 0) {
            return -1;
        }
        byte[] persisted = marks.readAll(nextOrdinal);
        // Local to this call under the monitor, so it may be unmapped at once.
        ByteBuffer v = contents();
        try {
            int[] found = {-1};
            walk(v, (pos, ordinal, due, nonce) -> {
                if (due == id.dueAtMillis() && nonce == id.nonce() && persisted[ordinal] != MarkFile.DUPLICATE) {
                    found[0] = ordinal;
                    return false;
                }
                return true;
            });
            return found[0];
        } finally {
            if (v instanceof MappedByteBuffer mapped) {
                Unmapper.unmap(mapped);
            }
        }
    }

    /**
     * Puts into {@code out} the records among {@code wanted} whose first copy is still pending
     * (not in flight, not settled), read from the file: what the server re-enqueues upstream.
     * One walk of the segment for all of them.
     */
    synchronized void readPending(Set<DelayId> wanted, Map<DelayId, DelayedRecord> out) throws IOException {
        if (deleted || size == 0) {
            return;
        }
        ensureStoreOpen();
        StateTable st = states;
        byte[] persisted = st == null ? marks.readAll(nextOrdinal) : null;
        ByteBuffer v = contents();
        try {
            Set<DelayId> seen = new HashSet<>();
            walk(v, (pos, ordinal, due, nonce) -> {
                DelayId id = new DelayId(due, nonce);
                byte state = st != null ? st.get(ordinal) : persisted[ordinal];
                if (state != MarkFile.DUPLICATE && wanted.contains(id) && seen.add(id)) {
                    if (state == MarkFile.PENDING) {
                        out.put(id, RecordCodec.decode(v, pos));
                    }
                }
                return seen.size() < wanted.size();
            });
        } finally {
            if (v instanceof MappedByteBuffer mapped) {
                Unmapper.unmap(mapped);
            }
        }
    }

    /**
     * The state of each id stored here, from its first copy (later copies and relinquished ones
     * do not count): one walk of the segment. An id being delivered or cancelled right now is
     * still {@link RecordState#PENDING}; its settlement is reported to the listener as usual.
     */
    synchronized RecordStates recordStates() throws IOException {
        if (deleted || size == 0) {
            return RecordStates.EMPTY;
        }
        ensureStoreOpen();
        StateTable st = states;
        byte[] persisted = st == null ? marks.readAll(nextOrdinal) : null;
        RecordStates out = new RecordStates(records);
        ByteBuffer v = contents();
        try {
            IdSet seen = new IdSet(records);
            walk(v, (pos, ordinal, due, nonce) -> {
                byte state = st != null ? st.get(ordinal) : persisted[ordinal];
                if (state != MarkFile.DUPLICATE && seen.add(due, nonce)) {
                    out.add(due, nonce, state == MarkFile.DELIVERED ? RecordState.DELIVERED
                            : state == MarkFile.CANCELLED ? RecordState.CANCELLED : RecordState.PENDING);
                }
                return true;
            });
        } finally {
            if (v instanceof MappedByteBuffer mapped) {
                Unmapper.unmap(mapped);
            }
        }
        return out;
    }

    /** A set of ids in two primitive arrays (open addressing): the store walk's first-copy check without an object per record. */
    private static final class IdSet {
        private final long[] due;
        private final long[] nonce;
        private final boolean[] used;
        private final int mask;

        IdSet(int expected) {
            int capacity = Integer.highestOneBit(Math.max(8, expected) * 2 - 1) << 1;
            due = new long[capacity];
            nonce = new long[capacity];
            used = new boolean[capacity];
            mask = capacity - 1;
        }

        /** @return false if the id was in the set already */
        boolean add(long d, long n) {
            long h = d * 0x9E3779B97F4A7C15L ^ n;
            h ^= h >>> 29;
            int i = (int) h & mask;
            while (used[i]) {
                if (due[i] == d && nonce[i] == n) {
                    return false;
                }
                i = (i + 1) & mask;
            }
            used[i] = true;
            due[i] = d;
            nonce[i] = n;
            return true;
        }
    }

    /** Ids and their states collected under the segment's lock, handed to a visitor after it is released. */
    static final class RecordStates {
        static final RecordStates EMPTY = new RecordStates(0);
        private final long[] due;
        private final long[] nonce;
        private final RecordState[] state;
        private int count;

        RecordStates(int capacity) {
            due = new long[capacity];
            nonce = new long[capacity];
            state = new RecordState[capacity];
        }

        void add(long d, long n, RecordState s) {
            due[count] = d;
            nonce[count] = n;
            state[count] = s;
            count++;
        }

        int visit(RecordStateVisitor visitor) {
            for (int i = 0; i < count; i++) {
                visitor.visit(due[i], nonce[i], state[i]);
            }
            return count;
        }
    }

    /**
     * Drops the pending copies of {@code ids} without delivering them: another server owns their
     * upstream copies now. They are marked {@link MarkFile#DUPLICATE}, so a copy of the same id
     * scheduled later is stored afresh and decides. Copies being delivered or settled are left.
     *
     * @return how many stored copies were dropped
     */
    synchronized int relinquish(Set<DelayId> ids) throws IOException {
        if (deleted || size == 0) {
            return 0;
        }
        ensureStoreOpen();
        StateTable st = states;
        int dropped = 0;
        if (st != null) {
            // Loaded: later copies were never stored (or were marked at load); only the first decides.
            for (DelayId id : ids) {
                Integer ordinal = firstOrdinal.get(id);
                // CANCELLING makes the wheel wait a millisecond, as for a cancel, while the mark is written.
                if (ordinal != null && st.compareAndSet(ordinal, MarkFile.PENDING, CANCELLING)) {
                    try {
                        writeMark(ordinal, MarkFile.DUPLICATE);
                    } catch (IOException e) {
                        st.set(ordinal, MarkFile.PENDING);
                        throw e;
                    }
                    st.set(ordinal, MarkFile.DUPLICATE);
                    firstOrdinal.remove(id);
                    settledOne();
                    dropped++;
                }
            }
            return dropped;
        }
        // On disk only: every pending copy goes, or the next one would decide at load.
        byte[] persisted = marks.readAll(nextOrdinal);
        List<Integer> ordinals = new ArrayList<>();
        ByteBuffer v = contents();
        try {
            walk(v, (pos, ordinal, due, nonce) -> {
                if (persisted[ordinal] == MarkFile.PENDING && ids.contains(new DelayId(due, nonce))) {
                    ordinals.add(ordinal);
                }
                return true;
            });
        } finally {
            if (v instanceof MappedByteBuffer mapped) {
                Unmapper.unmap(mapped);
            }
        }
        for (int ordinal : ordinals) {
            writeMark(ordinal, MarkFile.DUPLICATE);
            settledOne();
        }
        return ordinals.size();
    }

    /** Deletes the files if every record is settled and has been for {@code retentionMillis}. */
    synchronized boolean deleteIfSettled(long now, long retentionMillis) throws IOException {
        if (deleted || unsettled.get() > 0 || now - idleSince < retentionMillis) {
            return false;
        }
        deleted = true;
        closeFiles();
        view = null;
        firstOrdinal = null;
        ctx.bytes.addAndGet(-(size + marksLength));
        Files.deleteIfExists(dataPath);
        marks.delete();
        return true;
    }

    /** Closes file handles (reopened on next use): the handle budget, and shutdown. */
    synchronized void closeFiles() {
        if (data != null) {
            try {
                data.close();
            } catch (IOException ignored) {
                // Every write already returned; closing cannot lose one.
            }
            data = null;
        }
        marks.closeChannel();
        ctx.open.remove(this);
        registeredOpen = false;
    }

    /**
     * Forces what was written since the last force to the device: the records (so a copy re-read
     * after a power loss is recognised) and the marks. Under the monitor, so an append to this
     * bucket waits for it; the wheel does not (it takes no lock). Reopens a file the handle budget
     * closed meanwhile: closing does not force.
     */
    synchronized void force() throws IOException {
        if (deleted) {
            return;
        }
        boolean forcedData = false;
        boolean forcedMarks = false;
        if (dataDirty) {
            data().force(false);
            dataDirty = false;
            forcedData = true;
        }
        if (marksDirty) {
            ensureStoreOpen();
            marks.force();
            marksDirty = false;
            forcedMarks = true;
        }
        // A file's first force keeps its bytes but not necessarily its name: the directory is forced once per new file,
        // before this force returns and so before anything it settles is acknowledged.
        if ((forcedData && !dataNamed) || (forcedMarks && !marksNamed)) {
            ctx.files.forceDirectory(dataPath.getParent());
            dataNamed |= forcedData;
            marksNamed |= forcedMarks;
        }
    }

    /** Called under the monitor after every change to a file. */
    private void dirty(boolean data) {
        if (data) {
            dataDirty = true;
        } else {
            marksDirty = true;
        }
        ctx.dirty.add(this);
    }

    boolean isLoaded() {
        return states != null;
    }

    synchronized int records() {
        return records;
    }

    private void settledOne() {
        ctx.unsettled.decrementAndGet();
        if (unsettled.decrementAndGet() == 0) {
            idleSince = ctx.clock.millis();
        }
    }

    private void writeMark(int ordinal, byte state) throws IOException {
        ensureStoreOpen();
        marks.write(ordinal, state);
        dirty(false);
        if (ordinal + 1L > marksLength) {
            ctx.bytes.addAndGet(ordinal + 1L - marksLength);
            marksLength = ordinal + 1L;
        }
        touch();
    }

    private void persistQuietly(int ordinal, byte state) {
        try {
            writeMark(ordinal, state);
        } catch (IOException e) {
            // Found again at the next load; meanwhile memory has it right.
            ctx.health.error("could not mark duplicate [segment=" + dataPath.getFileName() + ", ordinal=" + ordinal
                    + "]: " + e);
        }
    }

    /** The segment's records [0, size): mapped, or copied into the heap if the mapping fails. */
    private ByteBuffer contents() throws IOException {
        FileChannel ch = data();
        try {
            return ch.map(FileChannel.MapMode.READ_ONLY, 0, size);
        } catch (IOException e) {
            if (size > HEAP_FALLBACK_MAX) {
                throw e;
            }
            ctx.health.error("could not map " + dataPath + ", reading it instead: " + e);
            ByteBuffer copy = ByteBuffer.allocate((int) size);
            readFully(copy, 0);
            return copy;
        }
    }

    private FileChannel data() throws IOException {
        ensureStoreOpen();
        if (data == null) {
            data = ctx.files.open(dataPath, EnumSet.of(StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE));
        }
        touch();
        return data;
    }

    private void ensureStoreOpen() throws IOException {
        if (ctx.closed) {
            throw new ClosedChannelException();
        }
    }

    private void touch() {
        lastUsedNanos = ctx.ticker.read();
        if (!registeredOpen && (data != null || marks.isOpen())) {
            ctx.open.add(this);
            registeredOpen = true;
        }
    }

    @FunctionalInterface
    private interface Visitor {
        /** @return false to stop */
        boolean visit(int pos, int ordinal, long due, long nonce) throws IOException;
    }

    /** Visits the records in [0, size), jumping over ranges recovery found corrupt. */
    private void walk(ByteBuffer v, Visitor visitor) throws IOException {
        int pos = 0;
        int skip = 0;
        while (pos < size) {
            if (skip < skips.length && pos >= skips[skip]) {
                pos = (int) skips[skip + 1];
                skip += 2;
                continue;
            }
            if (v.getInt(pos) != RecordCodec.MAGIC) {
                throw new IOException("no record at offset " + pos + " of " + dataPath
                        + " although recovery or an append put one there: was the file changed underneath?");
            }
            if (!visitor.visit(pos, RecordCodec.ordinal(v, pos), RecordCodec.due(v, pos), RecordCodec.nonce(v, pos))) {
                return;
            }
            pos += RecordCodec.length(v, pos);
        }
    }

    @Override
    public String toString() {
        return "Segment[" + dataPath.getFileName() + "]";
    }
}

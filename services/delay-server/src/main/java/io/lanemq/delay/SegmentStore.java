package io.lanemq.delay;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The directory of segments, one per due-time bucket that holds records:
 * <pre>
 *   store.properties                    format and bucket span (a directory keeps its span)
 *   lock                                held while an engine has the directory open
 *   segments/2030-01-01/1893456000000.seg   records due in [start, start + span), appended
 *   segments/2030-01-01/1893456000000.mark  one settled-state byte per record
 * </pre>
 * Day directories keep a year of one-minute buckets from piling 500,000 files into one
 * directory. Finds or creates the segment for a due time, hands due buckets to the loader and
 * deletes settled ones. Thread-safe.
 */
final class SegmentStore implements Closeable {

    private static final Logger log = LoggerFactory.getLogger(SegmentStore.class);
    private static final String FORMAT = "1";
    private static final int KEEP_ENCODE_BUFFER = 1 << 20;

    private final Path root;
    private final Path segmentsDir;
    private final long spanMillis;
    private final StoreContext ctx;
    /** Every segment by bucket start: the append path's lookup, lock-free. */
    private final ConcurrentHashMap<Long, Segment> segments = new ConcurrentHashMap<>();
    /** The same segments in due order, for the loader; guarded by {@link #lock}. */
    private final TreeMap<Long, Segment> ordered = new TreeMap<>();
    /** Guards segment creation and deletion, and the load horizon, against each other. */
    private final Object lock = new Object();
    private long loadHorizon = Long.MIN_VALUE;
    private final FileChannel lockChannel;
    private final FileLock dirLock;
    private final ThreadLocal<ByteBuffer> encodeBuffers = ThreadLocal.withInitial(() -> ByteBuffer.allocate(4096));

    private SegmentStore(Path root, long spanMillis, StoreContext ctx, FileChannel lockChannel, FileLock dirLock) {
        this.root = root;
        this.segmentsDir = root.resolve("segments");
        this.spanMillis = spanMillis;
        this.ctx = ctx;
        this.lockChannel = lockChannel;
        this.dirLock = dirLock;
    }

    /** Opens (creating if needed) and recovers the store in {@code root}; what was dropped goes to {@code dropped}. */
    static SegmentStore open(Path root, long spanMillis, StoreContext ctx, List<DroppedRange> dropped)
            throws IOException {
        if (!Files.isDirectory(root.resolve("segments"))) {
            Files.createDirectories(root.resolve("segments"));
            ctx.files.forceDirectory(root);
        }
        FileChannel lockChannel = FileChannel.open(root.resolve("lock"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE);
        FileLock dirLock;
        try {
            dirLock = lockChannel.tryLock();
        } catch (OverlappingFileLockException e) {
            dirLock = null; // held by another engine in this JVM
        } catch (IOException | RuntimeException e) {
            lockChannel.close();
            throw e;
        }
        if (dirLock == null) {
            lockChannel.close();
            throw new IOException(root + " is in use by another delay engine (its lock file is held)");
        }
        SegmentStore store = new SegmentStore(root, spanMillis, ctx, lockChannel, dirLock);
        try {
            store.checkMeta();
            store.recoverAll(dropped);
        } catch (IOException | RuntimeException e) {
            store.close();
            throw e;
        }
        return store;
    }

    private void checkMeta() throws IOException {
        Path meta = root.resolve("store.properties");
        Properties p = new Properties();
        if (Files.exists(meta)) {
            try (InputStream in = Files.newInputStream(meta)) {
                p.load(in);
            }
            if (!FORMAT.equals(p.getProperty("format"))) {
                throw new IOException(meta + " has format " + p.getProperty("format") + "; this engine reads " + FORMAT);
            }
            long span = Long.parseLong(p.getProperty("bucketSpanMillis", "-1"));
            if (span != spanMillis) {
                throw new IllegalStateException("bucketSpan " + spanMillis + " ms conflicts with " + root
                        + ", which holds buckets of " + span + " ms: build with its span or use a new directory");
            }
            return;
        }
        p.setProperty("format", FORMAT);
        p.setProperty("bucketSpanMillis", Long.toString(spanMillis));
        try (OutputStream out = Files.newOutputStream(meta)) {
            p.store(out, "LaneMQ delay store");
        }
    }

    private void recoverAll(List<DroppedRange> dropped) throws IOException {
        SegmentRecovery recovery = new SegmentRecovery(ctx.files, ctx.maxRecordBytes);
        long now = ctx.clock.millis();
        List<Path> days = list(segmentsDir);
        for (Path day : days) {
            if (!Files.isDirectory(day)) {
                continue;
            }
            for (Path file : list(day)) {
                String name = file.getFileName().toString();
                if (name.endsWith(".mark") && !Files.exists(day.resolve(stem(name) + ".seg"))) {
                    Files.delete(file);
                    continue;
                }
                if (!name.endsWith(".seg")) {
                    continue;
                }
                long start;
                try {
                    start = Long.parseLong(stem(name));
                } catch (NumberFormatException e) {
                    log.warn("Ignoring {}: not a segment name", file);
                    continue;
                }
                Path marks = day.resolve(stem(name) + ".mark");
                Segment.Recovered r = recovery.recover(file, marks, start, start + spanMillis, dropped);
                Segment segment = new Segment(start, start + spanMillis, file, marks, ctx, r, false, now);
                synchronized (lock) {
                    segments.put(start, segment);
                    ordered.put(start, segment);
                }
            }
            deleteIfEmpty(day);
        }
    }

    int segmentCount() {
        return segments.size();
    }

    long totalRecords() {
        long n = 0;
        for (Segment s : segments.values()) {
            n += s.records();
        }
        return n;
    }

    /** Stores one record in its bucket's segment. */
    Segment.Appended append(DelayedRecord record) throws DelayRejectedException, DelayStoreException {
        ByteBuffer buf = RecordCodec.encode(record, encodeBuffers.get());
        if (buf.capacity() <= KEEP_ENCODE_BUFFER) {
            encodeBuffers.set(buf);
        }
        if (buf.remaining() > ctx.maxRecordBytes) {
            throw new DelayRejectedException("record of " + buf.remaining() + " bytes exceeds maxRecordBytes "
                    + ctx.maxRecordBytes + " [id=" + record.id() + ", topic=" + record.topic() + "]");
        }
        long start = bucketStart(record.dueAtMillis());
        Segment segment = segments.get(start);
        try {
            while (true) {
                if (segment == null) {
                    segment = createSegment(start);
                }
                Segment.Appended appended = segment.append(buf, record.id());
                if (appended.outcome() != Segment.Appended.Outcome.SEGMENT_GONE) {
                    ctx.health.appendSucceeded();
                    return appended;
                }
                // Deleted as settled between lookup and append: the locked path waits out its removal.
                segment = null;
            }
        } catch (IOException e) {
            String what = "could not store record [id=" + record.id() + ", topic=" + record.topic() + ", segment="
                    + segmentPath(start, ".seg") + "]: " + e;
            ctx.health.appendFailed(what);
            throw new DelayStoreException(what, e);
        }
    }

    private Segment createSegment(long start) throws IOException {
        synchronized (lock) {
            Segment existing = segments.get(start);
            if (existing != null) {
                return existing;
            }
            Path data = segmentPath(start, ".seg");
            if (!Files.isDirectory(data.getParent())) {
                // A new day's directory: its name must be durable before the segment's files in it can be.
                Files.createDirectories(data.getParent());
                ctx.files.forceDirectory(segmentsDir);
            }
            Segment s = new Segment(start, start + spanMillis, data, segmentPath(start, ".mark"), ctx,
                    Segment.Recovered.EMPTY, start <= loadHorizon, ctx.clock.millis());
            segments.put(start, s);
            ordered.put(start, s);
            return s;
        }
    }

    CancelResult cancel(DelayId id) throws DelayStoreException {
        Segment segment = segments.get(bucketStart(id.dueAtMillis()));
        if (segment == null) {
            return CancelResult.UNKNOWN;
        }
        try {
            return segment.cancel(id);
        } catch (IOException e) {
            String what = "could not cancel [id=" + id + ", segment=" + segment.dataPath + "]: " + e;
            ctx.health.error(what);
            throw new DelayStoreException(what, e);
        }
    }

    /** The pending records among {@code ids}, one segment walk per bucket they fall in. */
    Map<DelayId, DelayedRecord> readPending(Collection<DelayId> ids) throws DelayStoreException {
        Map<DelayId, DelayedRecord> out = new HashMap<>();
        for (Map.Entry<Long, Set<DelayId>> bucket : byBucket(ids).entrySet()) {
            Segment segment = segments.get(bucket.getKey());
            if (segment == null) {
                continue;
            }
            try {
                segment.readPending(bucket.getValue(), out);
            } catch (IOException e) {
                String what = "could not read records of " + segment.dataPath + ": " + e;
                ctx.health.error(what);
                throw new DelayStoreException(what, e);
            }
        }
        return out;
    }

    /** Hands every stored id and its state to {@code visitor}, segment by segment; returns how many ids. */
    long forEachRecord(RecordStateVisitor visitor) throws DelayStoreException {
        List<Segment> all;
        synchronized (lock) {
            all = new ArrayList<>(ordered.values());
        }
        long visited = 0;
        for (Segment segment : all) {
            Segment.RecordStates states;
            try {
                states = segment.recordStates();
            } catch (IOException e) {
                String what = "could not read record states of " + segment.dataPath + ": " + e;
                ctx.health.error(what);
                throw new DelayStoreException(what, e);
            }
            visited += states.visit(visitor); // outside the segment's lock: the visitor may take its own
        }
        return visited;
    }

    /** Relinquishes {@code ids} (see {@link Segment#relinquish}), one walk per bucket they fall in. */
    int relinquish(Collection<DelayId> ids) throws DelayStoreException {
        int dropped = 0;
        for (Map.Entry<Long, Set<DelayId>> bucket : byBucket(ids).entrySet()) {
            Segment segment = segments.get(bucket.getKey());
            if (segment == null) {
                continue;
            }
            try {
                dropped += segment.relinquish(bucket.getValue());
            } catch (IOException e) {
                String what = "could not relinquish records of " + segment.dataPath + ": " + e;
                ctx.health.error(what);
                throw new DelayStoreException(what, e);
            }
        }
        return dropped;
    }

    private Map<Long, Set<DelayId>> byBucket(Collection<DelayId> ids) {
        Map<Long, Set<DelayId>> byBucket = new TreeMap<>();
        for (DelayId id : ids) {
            byBucket.computeIfAbsent(bucketStart(id.dueAtMillis()), k -> new HashSet<>()).add(id);
        }
        return byBucket;
    }

    /**
     * Moves the load horizon to {@code horizon} and returns the segments now inside it that are
     * not loaded yet. A segment created later inside the horizon starts out loaded.
     */
    List<Segment> toLoad(long horizon) {
        synchronized (lock) {
            loadHorizon = Math.max(loadHorizon, horizon);
            List<Segment> result = new ArrayList<>();
            for (Segment s : ordered.headMap(loadHorizon, true).values()) {
                if (!s.isLoaded()) {
                    result.add(s);
                }
            }
            return result;
        }
    }

    /** Deletes settled segments past their retention; closes the least recently used file handles over budget. */
    void housekeep(long now, long retentionMillis, int maxOpenSegments) {
        for (Segment s : segments.values()) {
            synchronized (lock) {
                try {
                    if (s.deleteIfSettled(now, retentionMillis)) {
                        segments.remove(s.start, s);
                        ordered.remove(s.start, s);
                        deleteIfEmpty(s.dataPath.getParent());
                    }
                } catch (IOException e) {
                    segments.remove(s.start, s);
                    ordered.remove(s.start, s);
                    ctx.health.error("could not delete settled segment " + s.dataPath + ": " + e);
                    log.warn("Could not delete settled segment {}; it is recovered and deleted again at the next start",
                            s.dataPath, e);
                }
            }
        }
        int open = ctx.open.size();
        if (open > maxOpenSegments) {
            // Snapshot the use times first: they keep moving, and a sort on moving keys fails.
            List<Map.Entry<Long, Segment>> lru = new ArrayList<>(open);
            for (Segment s : ctx.open) {
                lru.add(Map.entry(s.lastUsedNanos, s));
            }
            lru.sort(Map.Entry.comparingByKey());
            for (int i = 0; i < lru.size() - maxOpenSegments * 3 / 4; i++) {
                lru.get(i).getValue().closeFiles();
            }
        }
    }

    /** Forces every record and mark written since the last force to the device: one force per file written. */
    void flush() throws IOException {
        for (Segment s : ctx.dirty) {
            ctx.dirty.remove(s);
            try {
                s.force();
            } catch (IOException e) {
                ctx.dirty.add(s); // still dirty: the next flush tries again
                throw e;
            }
        }
    }

    /** Forces the bucket that holds {@code id}, if it exists. */
    void force(DelayId id) throws IOException {
        Segment s = segments.get(bucketStart(id.dueAtMillis()));
        if (s != null) {
            s.force();
        }
    }

    long bucketStart(long dueAtMillis) {
        return Math.floorDiv(dueAtMillis, spanMillis) * spanMillis;
    }

    Path segmentPath(long start, String suffix) {
        String day = Instant.ofEpochMilli(start).atZone(ZoneOffset.UTC).toLocalDate().toString();
        return segmentsDir.resolve(day).resolve(start + suffix);
    }

    /** Closes every file; writes nothing, so it is also what a crash leaves behind. */
    @Override
    public void close() {
        ctx.closed = true;
        for (Segment s : segments.values()) {
            s.closeFiles();
        }
        try {
            dirLock.release();
            lockChannel.close();
        } catch (IOException e) {
            log.warn("Could not release the lock of {}", root, e);
        }
    }

    private static String stem(String name) {
        return name.substring(0, name.lastIndexOf('.'));
    }

    private static List<Path> list(Path dir) throws IOException {
        List<Path> out = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
            stream.forEach(out::add);
        }
        out.sort(null);
        return out;
    }

    private static void deleteIfEmpty(Path dir) {
        try {
            Files.deleteIfExists(dir);
        } catch (DirectoryNotEmptyException e) {
            // Still holds segments.
        } catch (IOException e) {
            log.debug("Could not delete empty directory {}", dir, e);
        }
    }
}

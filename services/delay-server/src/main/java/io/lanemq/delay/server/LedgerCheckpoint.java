package io.lanemq.delay.server;

import io.lanemq.delay.DelayId;
import io.lanemq.rocketmq.QueueRef;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;
import java.util.zip.CheckedOutputStream;

/**
 * A cluster's offset bookkeeping on disk, so that a restarted server need not re-read one copy of
 * every pending record from the internal topic just to hold its offset again.
 *
 * <p><b>Format (v1), big-endian, one file {@value #FILE_NAME} in the cluster's store directory:</b>
 * magic {@code LMQK}, version, cluster name, time written; then sections, each a tag byte:
 * <ul>
 *   <li>{@code 1} a queue: topic, broker, queue id, the offset committed to the broker, the next
 *       offset to read, its read-time checkpoints (count, then offset and millis pairs), then its
 *       held offsets in blocks (count &gt; 0, then per offset: the distance from the previous one
 *       as an unsigned varint, the id's due time and nonce; a count of 0 ends the queue): ~17 B
 *       per held offset;</li>
 *   <li>{@code 2} an id whose re-enqueued copy was acknowledged but not read back: its queue and id;</li>
 *   <li>{@code 0} the end, followed by the CRC32C of every byte before it.</li>
 * </ul>
 * Written to a temporary file, forced to the device, then renamed over the old one, so a reader
 * sees a whole checkpoint or the previous one; a torn or altered file fails its CRC.
 *
 * <p><b>Reading</b> maps the file and makes two passes, so that millions of held offsets never sit
 * in the heap twice: {@link #open} checks the whole file (structure, bounds, CRC) and keeps each
 * queue's header and where its offsets start; {@link Loaded#readHeld} streams one queue's offsets
 * into its ledger later. The file is deleted as soon as it is opened (the mapping keeps it
 * readable), so a checkpoint is used at most once and a crash after this start never loads a stale
 * one.
 *
 * <p>Not thread-safe; one thread writes, one thread reads.
 */
final class LedgerCheckpoint {

    static final String FILE_NAME = "ledger.checkpoint";
    static final String REJECTED_SUFFIX = ".rejected";
    static final int VERSION = 1;
    private static final int MAGIC = 0x4C4D514B; // "LMQK"
    private static final byte END = 0;
    private static final byte QUEUE = 1;
    private static final byte AWAITING = 2;
    private static final int BLOCK = 4096;
    private static final int MAX_READ_TIMES = 10_000_000;

    private LedgerCheckpoint() {
    }

    /** A checkpoint that cannot be used: unreadable, altered, torn, another version or another cluster. */
    static final class InvalidCheckpointException extends IOException {
        InvalidCheckpointException(String message) {
            super(message);
        }

        InvalidCheckpointException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** One queue as checkpointed, without its held offsets (see {@link Loaded#readHeld}). */
    record Section(QueueRef queue, long committed, long nextRead, long[] readOffsets, long[] readMillis,
            long heldCount, long heldAt) {
    }

    /** An acknowledged re-enqueue whose copy was not read back yet. */
    record Awaiting(QueueRef queue, DelayId id) {
    }

    /** Receives held offsets in increasing order. */
    @FunctionalInterface
    interface HeldSink {
        void held(long offset, long dueAtMillis, long nonce);
    }

    /** Writes a checkpoint: queues one after another, then the ids awaiting their copy, then {@link #commit}. */
    static Writer writer(Path directory, String cluster, long writtenAtMillis) throws IOException {
        return new Writer(directory, cluster, writtenAtMillis);
    }

    static final class Writer implements Closeable {
        private final Path target;
        private final Path temp;
        private final FileChannel channel;
        private final OutputStream raw;
        private final CheckedOutputStream checked;
        private final DataOutputStream out;
        private final long[] blockOffsets = new long[BLOCK];
        private final long[] blockDue = new long[BLOCK];
        private final long[] blockNonce = new long[BLOCK];
        private int blockSize;
        private long lastOffset;
        private long held;
        private long queueHeld;
        private long queueNext = -1;
        private boolean committed;

        private Writer(Path directory, String cluster, long writtenAtMillis) throws IOException {
            this.target = directory.resolve(FILE_NAME);
            this.temp = directory.resolve(FILE_NAME + ".tmp");
            this.channel = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING);
            // Buffered above the CRC, so the CRC is computed over 64 KiB at a time, not per field.
            this.raw = Channels.newOutputStream(channel);
            this.checked = new CheckedOutputStream(raw, new CRC32C());
            this.out = new DataOutputStream(new BufferedOutputStream(checked, 1 << 16));
            out.writeInt(MAGIC);
            out.writeInt(VERSION);
            out.writeUTF(cluster);
            out.writeLong(writtenAtMillis);
        }

        /** Starts a queue; its held offsets follow through {@link #held}, in increasing order, then {@link #endQueue}. */
        void beginQueue(QueueRef queue, long committed, long nextRead, long[] readOffsets, long[] readMillis)
                throws IOException {
            if (queueNext >= 0) {
                throw new IllegalStateException("queue not ended before " + queue);
            }
            if (committed < 0 || nextRead < committed || readOffsets.length != readMillis.length) {
                throw new IllegalArgumentException("inconsistent queue header [queue=" + queue + ", committed="
                        + committed + ", nextRead=" + nextRead + "]");
            }
            out.writeByte(QUEUE);
            writeQueue(queue);
            out.writeLong(committed);
            out.writeLong(nextRead);
            out.writeInt(readOffsets.length);
            for (int i = 0; i < readOffsets.length; i++) {
                out.writeLong(readOffsets[i]);
                out.writeLong(readMillis[i]);
            }
            queueNext = nextRead;
            lastOffset = 0;
            queueHeld = 0;
        }

        void held(long offset, long dueAtMillis, long nonce) throws IOException {
            long previous = blockSize > 0 ? blockOffsets[blockSize - 1] : lastOffset;
            if (queueNext < 0) {
                throw new IllegalStateException("held offset " + offset + " outside a queue");
            }
            if (offset < previous || offset >= queueNext || queueHeld > 0 && offset == previous) {
                throw new IllegalArgumentException("held offset " + offset + " out of order or not below nextRead "
                        + queueNext + " (previous " + previous + ")");
            }
            blockOffsets[blockSize] = offset;
            blockDue[blockSize] = dueAtMillis;
            blockNonce[blockSize] = nonce;
            queueHeld++;
            if (++blockSize == BLOCK) {
                flushBlock();
            }
        }

        void endQueue() throws IOException {
            flushBlock();
            out.writeInt(0);
            queueNext = -1;
        }

        void awaiting(QueueRef queue, DelayId id) throws IOException {
            out.writeByte(AWAITING);
            writeQueue(queue);
            out.writeLong(id.dueAtMillis());
            out.writeLong(id.nonce());
        }

        /** Ends the file, forces it to the device and renames it over the previous checkpoint; returns its size. */
        long commit() throws IOException {
            if (queueNext >= 0) {
                throw new IllegalStateException("queue not ended");
            }
            out.writeByte(END);
            out.flush();
            int crc = (int) checked.getChecksum().getValue();
            new DataOutputStream(raw).writeInt(crc); // the trailer itself is not checksummed
            channel.force(true);
            long size = channel.size();
            channel.close();
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            forceDirectory(target.getParent());
            committed = true;
            return size;
        }

        /** Abandons an uncommitted checkpoint (its temporary file is deleted); the previous one stays. */
        @Override
        public void close() throws IOException {
            if (!committed) {
                channel.close();
                Files.deleteIfExists(temp);
            }
        }

        long heldWritten() {
            return held;
        }

        private void flushBlock() throws IOException {
            if (blockSize == 0) {
                return;
            }
            out.writeInt(blockSize);
            long previous = lastOffset;
            for (int i = 0; i < blockSize; i++) {
                writeVarLong(out, blockOffsets[i] - previous);
                previous = blockOffsets[i];
                out.writeLong(blockDue[i]);
                out.writeLong(blockNonce[i]);
            }
            lastOffset = previous;
            held += blockSize;
            blockSize = 0;
        }

        private void writeQueue(QueueRef queue) throws IOException {
            out.writeUTF(queue.topic());
            out.writeUTF(queue.broker());
            out.writeInt(queue.queueId());
        }
    }

    /**
     * Opens and checks the checkpoint in {@code directory}, then deletes it (see the class note).
     *
     * @return the checkpoint, or null when there is none
     * @throws InvalidCheckpointException it is unusable (the message says why); it was renamed to
     *     {@value #FILE_NAME}{@value #REJECTED_SUFFIX} for inspection
     */
    static Loaded open(Path directory, String cluster) throws IOException {
        Path file = directory.resolve(FILE_NAME);
        FileChannel channel;
        try {
            channel = FileChannel.open(file, StandardOpenOption.READ);
        } catch (NoSuchFileException e) {
            return null;
        }
        try {
            Loaded loaded = check(channel, file, cluster);
            Files.delete(file);
            return loaded;
        } catch (IOException | RuntimeException e) {
            channel.close();
            Files.move(file, directory.resolve(FILE_NAME + REJECTED_SUFFIX), StandardCopyOption.REPLACE_EXISTING);
            if (e instanceof InvalidCheckpointException invalid) {
                throw invalid;
            }
            throw new InvalidCheckpointException("checkpoint " + file + " is unreadable: " + e, e);
        }
    }

    /** Parses the whole mapped file (bounds-checked against its size), then checks its CRC. */
    private static Loaded check(FileChannel channel, Path file, String cluster) throws IOException {
        long size = channel.size();
        if (size > Integer.MAX_VALUE) {
            throw invalid(file, "larger than 2 GiB (" + size + " bytes)");
        }
        ByteBuffer in = channel.map(FileChannel.MapMode.READ_ONLY, 0, size);
        Map<QueueRef, Section> sections = new LinkedHashMap<>();
        List<Awaiting> awaiting = new ArrayList<>();
        long writtenAt;
        try {
            int magic = in.getInt();
            if (magic != MAGIC) {
                throw invalid(file, "not a ledger checkpoint (magic " + Integer.toHexString(magic) + ")");
            }
            int version = in.getInt();
            if (version != VERSION) {
                throw invalid(file, "version " + version + ", this server reads " + VERSION);
            }
            String written = readUtf(in);
            if (!written.equals(cluster)) {
                throw invalid(file, "written for cluster '" + written + "', not '" + cluster + "'");
            }
            writtenAt = in.getLong();
            for (byte tag = in.get(); tag != END; tag = in.get()) {
                if (tag == QUEUE) {
                    Section s = readSection(in, file);
                    if (sections.put(s.queue(), s) != null) {
                        throw invalid(file, "queue " + s.queue() + " appears twice");
                    }
                } else if (tag == AWAITING) {
                    awaiting.add(new Awaiting(readQueue(in), new DelayId(in.getLong(), in.getLong())));
                } else {
                    throw invalid(file, "unknown section tag " + tag + " at byte " + (in.position() - 1));
                }
            }
            int end = in.position();
            int stored = in.getInt();
            if (in.hasRemaining()) {
                throw invalid(file, in.remaining() + " bytes after the end");
            }
            CRC32C crc = new CRC32C();
            crc.update(in.duplicate().position(0).limit(end));
            if (stored != (int) crc.getValue()) {
                throw invalid(file, "CRC mismatch (stored " + Integer.toHexString(stored) + ", computed "
                        + Integer.toHexString((int) crc.getValue()) + "): the file was altered or torn");
            }
        } catch (BufferUnderflowException e) {
            throw new InvalidCheckpointException("checkpoint " + file + " is truncated (" + size + " bytes)", e);
        }
        return new Loaded(channel, in, writtenAt, sections, awaiting);
    }

    private static Section readSection(ByteBuffer in, Path file) throws IOException {
        QueueRef queue = readQueue(in);
        long committed = in.getLong();
        long nextRead = in.getLong();
        if (committed < 0 || nextRead < committed) {
            throw invalid(file, "queue " + queue + " has committed " + committed + " above nextRead " + nextRead);
        }
        int times = in.getInt();
        if (times < 0 || times > in.remaining() / 16) {
            throw invalid(file, "queue " + queue + " has " + times + " read times in " + in.remaining() + " bytes");
        }
        long[] readOffsets = new long[times];
        long[] readMillis = new long[times];
        for (int i = 0; i < times; i++) {
            readOffsets[i] = in.getLong();
            readMillis[i] = in.getLong();
        }
        int heldAt = in.position();
        long held = 0;
        long offset = 0;
        for (int n = in.getInt(); n != 0; n = in.getInt()) {
            if (n < 0 || n > BLOCK) {
                throw invalid(file, "queue " + queue + " has a block of " + n + " offsets");
            }
            for (int i = 0; i < n; i++) {
                long delta = readVarLong(in);
                if (delta < 0 || (held > 0 && delta == 0)) {
                    throw invalid(file, "queue " + queue + " has offsets out of order");
                }
                offset += delta;
                in.position(in.position() + 16); // due, nonce
                held++;
            }
        }
        if (held > 0 && offset >= nextRead) {
            throw invalid(file, "queue " + queue + " holds offset " + offset + " at or above nextRead " + nextRead);
        }
        return new Section(queue, committed, nextRead, readOffsets, readMillis, held, heldAt);
    }

    private static QueueRef readQueue(ByteBuffer in) throws IOException {
        return new QueueRef(readUtf(in), readUtf(in), in.getInt());
    }

    /** What {@link DataOutputStream#writeUTF} wrote: a two-byte length, then modified UTF-8. */
    private static String readUtf(ByteBuffer in) throws IOException {
        int length = Short.toUnsignedInt(in.getShort());
        byte[] bytes = new byte[2 + length];
        bytes[0] = (byte) (length >>> 8);
        bytes[1] = (byte) length;
        in.get(bytes, 2, length);
        return new DataInputStream(new ByteArrayInputStream(bytes)).readUTF();
    }

    private static InvalidCheckpointException invalid(Path file, String why) {
        return new InvalidCheckpointException("checkpoint " + file + " rejected: " + why);
    }

    /** A checked checkpoint; its file is already deleted, its contents readable until {@link #close}. */
    static final class Loaded implements Closeable {
        private final FileChannel channel;
        /** The whole file, mapped read-only: a mapping outlives the deleted file and the closed channel. */
        private final ByteBuffer contents;
        private final long writtenAtMillis;
        private final Map<QueueRef, Section> sections;
        private final List<Awaiting> awaiting;

        private Loaded(FileChannel channel, ByteBuffer contents, long writtenAtMillis, Map<QueueRef, Section> sections,
                List<Awaiting> awaiting) {
            this.channel = channel;
            this.contents = contents;
            this.writtenAtMillis = writtenAtMillis;
            this.sections = sections;
            this.awaiting = awaiting;
        }

        long writtenAtMillis() {
            return writtenAtMillis;
        }

        /** The queues not taken yet. */
        synchronized Map<QueueRef, Section> sections() {
            return Collections.unmodifiableMap(new LinkedHashMap<>(sections));
        }

        synchronized boolean covers(QueueRef queue) {
            return sections.containsKey(queue);
        }

        /** Takes a queue's section: each is used at most once. */
        synchronized Section take(QueueRef queue) {
            return sections.remove(queue);
        }

        /** Ids of {@code queue} awaiting their re-enqueued copy. */
        List<DelayId> awaiting(QueueRef queue) {
            List<DelayId> ids = new ArrayList<>();
            for (Awaiting a : awaiting) {
                if (a.queue().equals(queue)) {
                    ids.add(a.id());
                }
            }
            return ids;
        }

        /** Streams the held offsets of {@code section} (checked by {@link #open}) in increasing order. */
        void readHeld(Section section, HeldSink sink) throws IOException {
            ByteBuffer in = contents.duplicate().position((int) section.heldAt());
            long offset = 0;
            for (int n = in.getInt(); n != 0; n = in.getInt()) {
                for (int i = 0; i < n; i++) {
                    offset += readVarLong(in);
                    sink.held(offset, in.getLong(), in.getLong());
                }
            }
        }

        @Override
        public synchronized void close() throws IOException {
            sections.clear();
            channel.close();
        }
    }

    private static void writeVarLong(OutputStream out, long value) throws IOException {
        while ((value & ~0x7FL) != 0) {
            out.write((int) ((value & 0x7F) | 0x80));
            value >>>= 7;
        }
        out.write((int) value);
    }

    private static long readVarLong(ByteBuffer in) throws IOException {
        long value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int b = in.get() & 0xFF;
            value |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return value;
            }
        }
        throw new IOException("varint longer than 10 bytes");
    }

    private static void forceDirectory(Path directory) {
        try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
            dir.force(true);
        } catch (IOException e) {
            // Some file systems cannot open a directory; the rename is then as durable as they make it.
        }
    }
}

package io.lanemq.delay;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.EnumSet;

/**
 * The durable settled-state of a segment's records: one byte per ordinal (0 pending,
 * 1 delivered, 2 cancelled, 3 duplicate), written in place with positional {@code FileChannel}
 * writes. A one-byte write cannot tear, setting a state is idempotent, and a missing byte (a
 * hole, or past the end) reads as pending, so a lost mark can only cause a redelivery, never a
 * loss. Not thread-safe: guarded by its segment's lock.
 */
final class MarkFile {

    static final byte PENDING = 0;
    static final byte DELIVERED = 1;
    static final byte CANCELLED = 2;
    static final byte DUPLICATE = 3;

    private final Path path;
    private final FileChannelFactory files;
    private final ByteBuffer one = ByteBuffer.allocate(1);
    private FileChannel channel;

    MarkFile(Path path, FileChannelFactory files) {
        this.path = path;
        this.files = files;
    }

    Path path() {
        return path;
    }

    /** The states of ordinals {@code [0, count)}; missing ones are pending. */
    byte[] readAll(int count) throws IOException {
        byte[] states = new byte[count];
        if (count == 0 || !Files.exists(path)) {
            return states;
        }
        ByteBuffer dst = ByteBuffer.wrap(states);
        FileChannel ch = channel();
        long pos = 0;
        while (dst.hasRemaining()) {
            int n = ch.read(dst, pos);
            if (n < 0) {
                break;
            }
            pos += n;
        }
        return states;
    }

    byte read(int ordinal) throws IOException {
        if (!Files.exists(path)) {
            return PENDING;
        }
        one.clear();
        return channel().read(one, ordinal) == 1 ? one.get(0) : PENDING;
    }

    void write(int ordinal, byte state) throws IOException {
        one.clear();
        one.put(0, state);
        FileChannel ch = channel();
        while (one.hasRemaining()) {
            ch.write(one, ordinal + one.position());
        }
    }

    /**
     * Forgets marks at and past {@code count}: after a torn tail is cut, a new record reuses the
     * cut ordinals, and a mark that reached the disk while its record did not must not apply to it.
     */
    void truncate(int count) throws IOException {
        if (Files.exists(path) && Files.size(path) > count) {
            channel().truncate(count);
        }
    }

    /** Opens the file if the handle budget closed it since the write: closing a channel does not force it. */
    void force() throws IOException {
        channel().force(false);
    }

    boolean isOpen() {
        return channel != null;
    }

    void closeChannel() {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // Closing a channel we only wrote single bytes through: nothing left to lose.
            }
            channel = null;
        }
    }

    void delete() throws IOException {
        closeChannel();
        Files.deleteIfExists(path);
    }

    private FileChannel channel() throws IOException {
        if (channel == null) {
            channel = files.open(path, EnumSet.of(StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE));
        }
        return channel;
    }
}

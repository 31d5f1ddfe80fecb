package io.lanemq.delay;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.Set;

/**
 * Real files whose writes can be made to fail as on a full disk (after writing part of the
 * buffer, as the kernel does) or a read-only one, whose forces can be made to fail as on a failing
 * device, and whose mappings can be made to fail.
 */
final class FailingDisk implements FileChannelFactory {

    private volatile String writeError;
    private volatile String mapError;
    private volatile String forceError;

    void fill() {
        writeError = "No space left on device";
    }

    void remountReadOnly() {
        writeError = "Read-only file system";
    }

    void failMaps() {
        mapError = "Map failed";
    }

    /** Writes still land in the page cache, but nothing reaches the device: an I/O error on fsync. */
    void failForces() {
        forceError = "Input/output error";
    }

    void heal() {
        writeError = null;
        mapError = null;
        forceError = null;
    }

    @Override
    public FileChannel open(Path path, Set<? extends OpenOption> options) throws IOException {
        return new Channel(FileChannel.open(path, options));
    }

    private final class Channel extends DelegatingChannel {

        Channel(FileChannel real) {
            super(real);
        }

        @Override
        public int write(ByteBuffer src, long position) throws IOException {
            String error = writeError;
            if (error == null) {
                return real.write(src, position);
            }
            if (src.remaining() > 1 && error.startsWith("No space")) {
                // The kernel takes what fits, then refuses the rest.
                ByteBuffer half = src.duplicate().limit(src.position() + src.remaining() / 2);
                int n = real.write(half, position);
                src.position(src.position() + n);
                if (n > 0) {
                    return n;
                }
            }
            throw new IOException(error);
        }

        @Override
        public FileChannel truncate(long size) throws IOException {
            if (writeError != null && writeError.startsWith("Read-only")) {
                throw new IOException(writeError);
            }
            return super.truncate(size);
        }

        @Override
        public void force(boolean metaData) throws IOException {
            String error = forceError;
            if (error != null) {
                throw new IOException(error);
            }
            real.force(metaData);
        }

        @Override
        public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
            if (mapError != null) {
                throw new IOException(mapError);
            }
            return real.map(mode, position, size);
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            if (writeError != null) {
                throw new IOException(writeError);
            }
            return real.write(src);
        }

        @Override
        public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
            if (writeError != null) {
                throw new IOException(writeError);
            }
            return real.write(srcs, offset, length);
        }
    }
}

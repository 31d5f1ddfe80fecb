package io.lanemq.delay;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.Set;

/**
 * Real files whose writes can be made to fail as on a full disk (after writing part of the
 * buffer, as the kernel does) or a read-only one, and whose mappings can be made to fail.
 */
final class FailingDisk implements FileChannelFactory {

    private volatile String writeError;
    private volatile String mapError;

    void fill() {
        writeError = "No space left on device";
    }

    void remountReadOnly() {
        writeError = "Read-only file system";
    }

    void failMaps() {
        mapError = "Map failed";
    }

    void heal() {
        writeError = null;
        mapError = null;
    }

    @Override
    public FileChannel open(Path path, Set<? extends OpenOption> options) throws IOException {
        return new Channel(FileChannel.open(path, options));
    }

    private final class Channel extends FileChannel {
        private final FileChannel real;

        Channel(FileChannel real) {
            this.real = real;
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
            real.truncate(size);
            return this;
        }

        @Override
        public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
            if (mapError != null) {
                throw new IOException(mapError);
            }
            return real.map(mode, position, size);
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            return real.read(dst);
        }

        @Override
        public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
            return real.read(dsts, offset, length);
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

        @Override
        public long position() throws IOException {
            return real.position();
        }

        @Override
        public FileChannel position(long newPosition) throws IOException {
            real.position(newPosition);
            return this;
        }

        @Override
        public long size() throws IOException {
            return real.size();
        }

        @Override
        public void force(boolean metaData) throws IOException {
            real.force(metaData);
        }

        @Override
        public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
            return real.transferTo(position, count, target);
        }

        @Override
        public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
            return real.transferFrom(src, position, count);
        }

        @Override
        public int read(ByteBuffer dst, long position) throws IOException {
            return real.read(dst, position);
        }

        @Override
        public FileLock lock(long position, long size, boolean shared) throws IOException {
            return real.lock(position, size, shared);
        }

        @Override
        public FileLock tryLock(long position, long size, boolean shared) throws IOException {
            return real.tryLock(position, size, shared);
        }

        @Override
        protected void implCloseChannel() throws IOException {
            real.close();
        }
    }
}

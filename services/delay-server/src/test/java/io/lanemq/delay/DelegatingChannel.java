package io.lanemq.delay;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;

/** A real file channel that fault layers wrap: every call goes to {@link #real} unless a subclass intercepts it. */
abstract class DelegatingChannel extends FileChannel {
    final FileChannel real;

    DelegatingChannel(FileChannel real) {
        this.real = real;
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
        return real.write(src, position);
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        return real.write(src);
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        return real.write(srcs, offset, length);
    }

    @Override
    public FileChannel truncate(long size) throws IOException {
        real.truncate(size);
        return this;
    }

    @Override
    public void force(boolean metaData) throws IOException {
        real.force(metaData);
    }

    @Override
    public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
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
    public int read(ByteBuffer dst, long position) throws IOException {
        return real.read(dst, position);
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
    public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
        return real.transferTo(position, count, target);
    }

    @Override
    public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
        return real.transferFrom(src, position, count);
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

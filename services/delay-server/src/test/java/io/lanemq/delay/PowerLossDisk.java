package io.lanemq.delay;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Real files with a page cache that a power loss empties. Each file opened through it keeps, apart
 * from what is written, its contents as of its last {@code force()}; {@link #powerOff()} fails
 * every write and force from then on (the machine is dead), and {@link #powerOn()} puts every file
 * back to its last forced contents: a file never forced disappears, bytes written after the last
 * force vanish, bytes forced remain. A file the store deleted stays deleted. A file created since boot
 * also needs its name kept: it disappears, forced or not, unless its directory was forced
 * ({@link #forceDirectory}) after it was created, as on a file system that does not journal a
 * directory with its files. Forces are counted per file suffix ({@code "dir"} for directories) and
 * can be held ({@link #holdForces()}) to model a slow device.
 *
 * <p>Files the store writes without this factory ({@code store.properties}, the lock) are left as
 * they are: they are written once, when the directory is created.
 */
final class PowerLossDisk implements FileChannelFactory {

    /** Contents as of the last force; null while a file that did not exist when first opened was never forced. */
    private final Map<Path, byte[]> durable = new ConcurrentHashMap<>();
    private final Set<Path> opened = ConcurrentHashMap.newKeySet();
    private final Map<String, AtomicInteger> forces = new ConcurrentHashMap<>();
    /** Files created since boot, with the event number of their creation. */
    private final Map<Path, Long> createdAt = new ConcurrentHashMap<>();
    /** Directories by the event number of their last completed force. */
    private final Map<Path, Long> directoryForcedAt = new ConcurrentHashMap<>();
    private final AtomicLong events = new AtomicLong();
    private volatile boolean off;
    private volatile CountDownLatch forceGate;

    @Override
    public FileChannel open(Path path, Set<? extends OpenOption> options) throws IOException {
        if (off) {
            throw new IOException("power is off");
        }
        if (opened.add(path)) {
            if (Files.exists(path)) {
                durable.put(path, Files.readAllBytes(path)); // on the device before this boot's first open
            } else {
                createdAt.put(path, events.incrementAndGet());
            }
        }
        return new Channel(FileChannel.open(path, options), path);
    }

    @Override
    public void forceDirectory(Path directory) throws IOException {
        if (off) {
            throw new IOException("power is off");
        }
        FileChannelFactory.super.forceDirectory(directory);
        directoryForcedAt.put(directory, events.incrementAndGet());
        forces.computeIfAbsent("dir", k -> new AtomicInteger()).incrementAndGet();
    }

    /** Whether the name of {@code file}, created since boot, would survive a power loss now. */
    boolean nameDurable(Path file) {
        Long created = createdAt.get(file);
        Long forced = directoryForcedAt.get(file.getParent());
        return created == null || (forced != null && forced > created);
    }

    /** The machine dies: nothing written from now on reaches any file. */
    void powerOff() {
        off = true;
    }

    boolean isOff() {
        return off;
    }

    /** The machine boots again: every file as the device last had it. Call once the engine has let go of its files. */
    void powerOn() throws IOException {
        for (Path path : opened) {
            if (!Files.exists(path)) {
                continue; // deleted by the store: a deletion is treated as durable
            }
            byte[] kept = durable.get(path);
            if (kept == null || !nameDurable(path)) {
                Files.delete(path);
            } else {
                Files.write(path, kept);
            }
        }
        opened.clear();
        durable.clear();
        createdAt.clear();
        directoryForcedAt.clear();
        off = false;
    }

    /** Forces that completed on files whose name ends with {@code suffix}. */
    int forces(String suffix) {
        AtomicInteger n = forces.get(suffix);
        return n == null ? 0 : n.get();
    }

    /** Forces wait, as on a slow device, until {@link #releaseForces()}. */
    void holdForces() {
        forceGate = new CountDownLatch(1);
    }

    void releaseForces() {
        CountDownLatch gate = forceGate;
        forceGate = null;
        if (gate != null) {
            gate.countDown();
        }
    }

    private final class Channel extends DelegatingChannel {
        private final Path path;

        Channel(FileChannel real, Path path) {
            super(real);
            this.path = path;
        }

        private void requirePower() throws IOException {
            if (off) {
                throw new IOException("power is off");
            }
        }

        @Override
        public int write(ByteBuffer src, long position) throws IOException {
            requirePower();
            return real.write(src, position);
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            requirePower();
            return real.write(src);
        }

        @Override
        public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
            requirePower();
            return real.write(srcs, offset, length);
        }

        @Override
        public FileChannel truncate(long size) throws IOException {
            requirePower();
            return super.truncate(size);
        }

        @Override
        public void force(boolean metaData) throws IOException {
            CountDownLatch gate = forceGate;
            if (gate != null) {
                try {
                    if (!gate.await(30, TimeUnit.SECONDS)) {
                        throw new IOException("force held for 30 s: the test never released it");
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while the device was slow", e);
                }
            }
            requirePower();
            ByteBuffer all = ByteBuffer.allocate((int) real.size());
            while (all.hasRemaining() && real.read(all, all.position()) >= 0) {
                // reads the whole file as it is now: what this force puts on the device
            }
            durable.put(path, all.array());
            String name = path.getFileName().toString();
            forces.computeIfAbsent(name.substring(name.lastIndexOf('.')), k -> new AtomicInteger()).incrementAndGet();
        }
    }
}

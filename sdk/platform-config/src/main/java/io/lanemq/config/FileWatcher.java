package io.lanemq.config;

import io.lanemq.support.NamedThreads;
import io.lanemq.api.InvalidConfigurationException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The watch thread of a {@link FileConfigSource}.
 *
 * <p>It watches two directories with the JDK's {@link WatchService} (inotify on Linux): the one holding the
 * configured path, and the one holding the file that path resolves to. The first sees a Kubernetes ConfigMap
 * update: the kubelet writes a new {@code ..2026_...} directory and renames a {@code ..data_tmp} symlink over
 * {@code ..data}, which shows as create/delete events there (measured: reported within 1 ms). The second sees an
 * in-place edit of a file reached through a symlink into another directory, which raises no event in the first
 * (measured: none in 2 s). After each read the resolved directory is registered anew, since a swap moves it.
 *
 * <p>Any event only marks the file dirty; it is read once events have been quiet for {@value #SETTLE_MS} ms (so a
 * writer that truncates, then writes, is read once, whole), and at the latest {@value #MAX_DELAY_MS} ms after the
 * first event (so a busy directory cannot postpone it forever). As a safety net for what inotify cannot see
 * (a watch limit reached, a network file system, a platform whose WatchService polls), the file's resolved
 * path, size and modification time are compared every {@code recheck}; a difference is treated as an event.
 * Reading and comparing the text decides whether anything changed; see {@link SnapshotDelivery}.
 *
 * <p>The waits are the kernel's and the file system's, so there is no clock to inject: tests edit real files and
 * poll for the outcome with a deadline.
 */
final class FileWatcher implements AutoCloseable {
    static final long SETTLE_MS = 50;
    static final long MAX_DELAY_MS = 300;
    private static final Logger LOG = LoggerFactory.getLogger(FileWatcher.class);

    private final Path path;
    private final String origin;
    private final Sink delivery;
    private final long recheckNanos;
    private final WatchService watchService;
    private final Thread thread;
    /** Watched directory to its key; touched by the watch thread only. */
    private final Map<Path, WatchKey> keys = new HashMap<>();
    private Signature lastRead;
    private volatile boolean closed;

    /** Where the reads go: each text read, or why the file could not be read. Called from the watch thread. */
    interface Sink {
        void offer(String text, String origin);

        void offerAbsent(InvalidConfigurationException why, String origin);
    }

    FileWatcher(Path path, String origin, Sink delivery, Duration recheck) throws IOException {
        this.path = path;
        this.origin = origin;
        this.delivery = delivery;
        this.recheckNanos = recheck.toNanos();
        this.watchService = path.getFileSystem().newWatchService();
        this.thread = NamedThreads.daemon("lanemq-config-watch-" + path.getFileName(), this::run);
    }

    void start() {
        thread.start();
    }

    boolean isRunning() {
        return thread.isAlive();
    }

    private void run() {
        long settle = TimeUnit.MILLISECONDS.toNanos(SETTLE_MS);
        long maxDelay = TimeUnit.MILLISECONDS.toNanos(MAX_DELAY_MS);
        watchDirectories();
        // Dirty from the start: the file may have changed between load() and the registration above.
        long now = System.nanoTime();
        boolean dirty = true;
        long dirtySince = now;
        long lastEvent = now;
        long nextRecheck = now + recheckNanos;
        while (!closed) {
            now = System.nanoTime();
            long wakeAt = dirty ? Math.min(lastEvent + settle, dirtySince + maxDelay) : nextRecheck;
            WatchKey key;
            try {
                key = watchService.poll(Math.max(0, wakeAt - now), TimeUnit.NANOSECONDS);
            } catch (InterruptedException | ClosedWatchServiceException e) {
                break;
            }
            now = System.nanoTime();
            if (key != null) {
                drain(key);
                lastEvent = now;
                if (!dirty) {
                    dirty = true;
                    dirtySince = now;
                }
                continue;
            }
            if (dirty && (now - lastEvent >= settle || now - dirtySince >= maxDelay)) {
                dirty = false;
                check();
                nextRecheck = System.nanoTime() + recheckNanos;
            } else if (!dirty && now - nextRecheck >= 0) {
                nextRecheck = now + recheckNanos;
                if (!Objects.equals(signature(), lastRead)) {
                    dirty = true;
                    dirtySince = now;
                    lastEvent = now;
                }
            }
        }
    }

    /** Takes every pending key: which directory or file changed does not matter, the read decides. */
    private void drain(WatchKey first) {
        for (WatchKey key = first; key != null; key = watchService.poll()) {
            key.pollEvents();
            if (!key.reset()) {
                keys.values().remove(key); // its directory is gone (an old ConfigMap generation)
            }
        }
    }

    private void check() {
        Signature before = signature();
        try {
            String text = Files.readString(path, StandardCharsets.UTF_8);
            lastRead = before;
            delivery.offer(text, origin);
        } catch (IOException e) {
            lastRead = before;
            String why = e instanceof NoSuchFileException ? "the file does not exist" : e.toString();
            delivery.offerAbsent(new InvalidConfigurationException(
                    "cannot read platform configuration " + origin + ": " + why + "; the last good configuration stays in force", e), origin);
        }
        watchDirectories();
    }

    private void watchDirectories() {
        Set<Path> wanted = new HashSet<>();
        wanted.add(path.getParent());
        try {
            wanted.add(path.toRealPath().getParent());
        } catch (IOException e) {
            // Missing right now: the configured directory's events will tell when it is back.
        }
        keys.entrySet().removeIf(entry -> {
            if (!wanted.contains(entry.getKey())) {
                entry.getValue().cancel();
                return true;
            }
            return false;
        });
        for (Path dir : wanted) {
            if (!keys.containsKey(dir)) {
                try {
                    keys.put(dir, dir.register(watchService, StandardWatchEventKinds.ENTRY_CREATE,
                            StandardWatchEventKinds.ENTRY_MODIFY, StandardWatchEventKinds.ENTRY_DELETE));
                } catch (IOException | ClosedWatchServiceException e) {
                    if (!closed) {
                        LOG.warn("cannot watch {} for changes to {} ({}); falling back to a re-check every {} ms",
                                dir, origin, e.toString(), TimeUnit.NANOSECONDS.toMillis(recheckNanos));
                    }
                }
            }
        }
    }

    /** What the safety-net re-check compares: cheap to take, changes with any write or symlink swap. */
    private Signature signature() {
        try {
            Path real = path.toRealPath();
            BasicFileAttributes attributes = Files.readAttributes(real, BasicFileAttributes.class);
            return new Signature(real, attributes.size(), attributes.lastModifiedTime().toMillis(), attributes.fileKey());
        } catch (IOException e) {
            return null;
        }
    }

    private record Signature(Path realPath, long size, long modifiedMillis, Object fileKey) {
    }

    @Override
    public void close() {
        closed = true;
        try {
            watchService.close();
        } catch (IOException e) {
            LOG.debug("closing the watch service of {}", origin, e);
        }
        // Closing the watch service wakes the thread; no interrupt, which could land in a listener mid-apply.
        if (Thread.currentThread() != thread) {
            try {
                thread.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}

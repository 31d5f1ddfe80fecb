package io.lanemq.delay;

import io.lanemq.support.NamedThreads;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The loader thread: keeps the wheel fed with every bucket that starts within the load-ahead
 * window, and does the store's housekeeping (deleting settled segments, the file handle budget).
 * Loading is off the wheel thread so that reading a cold segment from disk never delays a firing.
 */
final class Loader implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(Loader.class);
    private static final long CYCLE_MILLIS = 100;
    private static final long HOUSEKEEPING_MILLIS = 1_000;
    private static final long LOAD_RETRY_MILLIS = 5_000;

    private final SegmentStore store;
    private final Dispatcher dispatcher;
    private final InstantSource clock;
    private final Health health;
    private final long loadAheadMillis;
    private final long retentionMillis;
    private final int maxOpenSegments;
    /** Segments whose load failed, and when to try again. Loader thread only. */
    private final Map<Segment, Long> failed = new HashMap<>();
    final Cycles cycles = new Cycles();
    private long nextHousekeeping = Long.MIN_VALUE;
    private volatile boolean running = true;
    private volatile Thread thread;

    Loader(SegmentStore store, Dispatcher dispatcher, InstantSource clock, Health health, long loadAheadMillis,
            long retentionMillis, int maxOpenSegments) {
        this.store = store;
        this.dispatcher = dispatcher;
        this.clock = clock;
        this.health = health;
        this.loadAheadMillis = loadAheadMillis;
        this.retentionMillis = retentionMillis;
        this.maxOpenSegments = maxOpenSegments;
    }

    void start(String threadName) {
        Thread t = NamedThreads.daemon(threadName, this);
        thread = t;
        t.start();
    }

    @Override
    public void run() {
        while (running) {
            long cycle = cycles.begin();
            try {
                runOnce();
            } catch (RuntimeException e) {
                log.error("Loader cycle failed; continuing", e);
            } finally {
                cycles.end(cycle);
            }
            if (running) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(CYCLE_MILLIS));
            }
        }
    }

    /** Loads what the window now covers; housekeeps once a second. Called by build() for the first load. */
    void runOnce() {
        long now = clock.millis();
        List<Segment> due = store.toLoad(now + loadAheadMillis);
        for (Segment segment : due) {
            Long retryAt = failed.get(segment);
            if (retryAt != null && now < retryAt) {
                continue;
            }
            try {
                dispatcher.submitAll(segment.load());
                failed.remove(segment);
            } catch (Exception | InternalError e) {
                // InternalError: a fault in a mapped page. The segment stays unloaded and is tried again.
                failed.put(segment, now + LOAD_RETRY_MILLIS);
                String what = "could not load " + segment.dataPath + " (due from " + segment.start + "), retrying in "
                        + LOAD_RETRY_MILLIS + " ms: " + e;
                health.error(what);
                log.warn(what);
            }
        }
        if (now >= nextHousekeeping) {
            store.housekeep(now, retentionMillis, maxOpenSegments);
            failed.keySet().removeIf(s -> !due.contains(s));
            nextHousekeeping = now + HOUSEKEEPING_MILLIS;
        }
    }

    void wake() {
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    void stop() throws InterruptedException {
        running = false;
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
            t.join(TimeUnit.SECONDS.toMillis(10));
        }
    }
}

package io.lanemq.delay;

import io.lanemq.support.Backoff;
import io.lanemq.support.NamedThreads;
import java.io.IOException;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The wheel thread: owns the {@link TimingWheel}, takes new entries from other threads through a
 * lock-free queue, sleeps until the next deadline, and hands each due record to the
 * {@link DeliverySink}. A record becomes settled only when the sink's future completes; a failure
 * puts it back on the wheel with backoff.
 *
 * <p>Nothing on this thread waits for a disk or for a lock that a disk writer holds: claiming
 * and settling a record are compare-and-sets ({@link StateTable}), records come from a mapping
 * or a heap copy, and marks are written by the {@link MarkWriter}. Measured before that rule,
 * kernel writeback stalling a mark write put 100+ ms into the firing tail.
 *
 * <p>It parks until the exact millisecond of the next entry (re-reading the clock after every
 * wake, since a park can return early or late), at most {@value #MAX_PARK_MILLIS} ms at a time
 * so a clock that jumps is noticed.
 */
final class Dispatcher implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(Dispatcher.class);
    private static final long MAX_PARK_MILLIS = 100;
    private static final Comparator<WheelEntry> FIRING_ORDER =
            Comparator.<WheelEntry>comparingLong(e -> e.fireAt).thenComparingLong(e -> e.dueAt);

    private final InstantSource clock;
    private final DeliverySink sink;
    private final Backoff backoff;
    private final Health health;
    private final TimingWheel wheel;
    private final ConcurrentLinkedQueue<WheelEntry> incoming = new ConcurrentLinkedQueue<>();
    private final List<WheelEntry> due = new ArrayList<>();
    private final Object inFlightMonitor = new Object();
    private int inFlight;
    final Cycles cycles = new Cycles();
    private volatile boolean running = true;
    /** The deadline the thread sleeps towards; {@code Long.MIN_VALUE} while it works. */
    private volatile long parkedUntil = Long.MIN_VALUE;
    private volatile Thread thread;

    Dispatcher(InstantSource clock, DeliverySink sink, Backoff backoff, Health health) {
        this.clock = clock;
        this.sink = sink;
        this.backoff = backoff;
        this.health = health;
        this.wheel = new TimingWheel(clock.millis());
    }

    void start(String threadName) {
        Thread t = NamedThreads.daemon(threadName, this);
        thread = t;
        t.start();
    }

    /** Thread-safe: wakes the thread only if the entry is due before it would wake anyway. */
    void submit(WheelEntry entry) {
        incoming.add(entry);
        if (entry.fireAt < parkedUntil) {
            wake();
        }
    }

    void submitAll(List<WheelEntry> entries) {
        if (entries.isEmpty()) {
            return;
        }
        incoming.addAll(entries);
        wake();
    }

    void wake() {
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    @Override
    public void run() {
        while (running) {
            long cycle = cycles.begin();
            try {
                long now = clock.millis();
                wheel.advance(now, due);
                for (WheelEntry e; (e = incoming.poll()) != null; ) {
                    wheel.add(e, due);
                }
                if (due.size() > 1) {
                    due.sort(FIRING_ORDER);
                }
                for (WheelEntry e : due) {
                    fire(e);
                }
            } catch (RuntimeException e) {
                log.error("Wheel cycle failed; continuing", e);
            } finally {
                due.clear();
                cycles.end(cycle);
            }
            park(wheel.nextDeadline());
        }
    }

    private void park(long deadline) {
        parkedUntil = deadline;
        if (incoming.isEmpty() && running) {
            long delay = deadline == Long.MAX_VALUE ? MAX_PARK_MILLIS : deadline - clock.millis();
            if (delay > 0) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(Math.min(delay, MAX_PARK_MILLIS)));
            }
        }
        parkedUntil = Long.MIN_VALUE;
    }

    private void fire(WheelEntry e) {
        Segment segment = e.segment;
        Segment.Claim claim = segment.beginDelivery(e.ordinal);
        if (claim == Segment.Claim.LATER) {
            e.fireAt = wheel.now() + 1; // a cancel is writing its mark: its outcome decides
            incoming.add(e);
            return;
        }
        if (claim == Segment.Claim.SKIP) {
            segment.dropCached(e); // cancelled, a duplicate, or its segment is gone
            return;
        }
        DelayedRecord record;
        try {
            record = segment.read(e);
        } catch (IOException | RuntimeException | InternalError x) {
            // InternalError: the JVM's answer to a fault in a mapped page; the process keeps running.
            segment.deliveryFailed(e.ordinal);
            String what = "could not read record [segment=" + segment.dataPath.getFileName() + ", offset=" + e.offset
                    + "]: " + x;
            health.error(what);
            retry(e, what);
            return;
        }
        synchronized (inFlightMonitor) {
            inFlight++;
        }
        CompletionStage<?> stage;
        try {
            stage = sink.deliver(record);
            if (stage == null) {
                stage = CompletableFuture.failedFuture(new NullPointerException("DeliverySink returned null"));
            }
        } catch (Throwable x) {
            // The sink is someone else's code: whatever it throws is a failed delivery, not a dead wheel.
            stage = CompletableFuture.failedFuture(x);
        }
        stage.whenComplete((ignored, failure) -> completed(e, record, failure));
    }

    /** On whichever thread completes the sink's future: no I/O here, the mark is written by the {@link MarkWriter}. */
    private void completed(WheelEntry e, DelayedRecord record, Throwable failure) {
        try {
            if (failure == null) {
                e.segment.delivered(e.ordinal, record.id());
            } else {
                e.segment.deliveryFailed(e.ordinal);
                retry(e, "delivery failed [id=" + record.id() + ", topic=" + record.topic() + ", cluster="
                        + record.cluster() + "]: " + failure);
            }
        } finally {
            synchronized (inFlightMonitor) {
                if (--inFlight == 0) {
                    inFlightMonitor.notifyAll();
                }
            }
        }
    }

    private void retry(WheelEntry e, String what) {
        if (!running) {
            return; // pending on disk: the next start delivers it
        }
        e.attempts++;
        long delay = backoff.delay(e.attempts).toMillis();
        e.fireAt = clock.millis() + delay;
        log.warn("Retrying in {} ms (attempt {}): {}", delay, e.attempts, what);
        submit(e);
    }

    /** Stops firing; deliveries already handed to the sink may still complete. */
    void stop() throws InterruptedException {
        running = false;
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
            t.join(TimeUnit.SECONDS.toMillis(10));
        }
    }

    /** Waits up to {@code timeoutMillis} for deliveries handed to the sink to complete; true if none is left. */
    boolean awaitInFlight(long timeoutMillis) throws InterruptedException {
        // On System.nanoTime, not the injected clock: this deadline bounds a real wait on the monitor.
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        synchronized (inFlightMonitor) {
            while (inFlight > 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(inFlightMonitor, left);
            }
            return true;
        }
    }
}

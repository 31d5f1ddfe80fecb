package io.lanemq.delay;

import io.lanemq.support.NamedThreads;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes "delivered" marks on its own thread. A delivery is settled in memory the moment the
 * sink confirms it; its mark follows within milliseconds. Keeping the write off the thread that
 * completed the delivery (often the wheel thread itself) keeps a stalled disk from delaying
 * firings; the cost of a crash in between is a redelivery, which at-least-once allows anyway.
 *
 * <p><b>Forced before reported.</b> The listener hears of a delivery only once its mark (and its
 * segment's records) are forced to the device, because the server commits the record's upstream
 * offset on that report: a mark lost to a power loss after the commit would deliver the record
 * again with nothing upstream to show for it. Forces are grouped: each batch taken from the queue
 * (everything that arrived while the previous batch was written and forced) costs one force per
 * segment it touches, not one per mark; under load batches grow, so the forces per second stay
 * bounded by the device's latency, not by the delivery rate.
 */
final class MarkWriter implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(MarkWriter.class);

    /** A mark to write; or, with a latch, a barrier counted down once everything before it is written. */
    private record Mark(Segment segment, int ordinal, DelayId id, CountDownLatch barrier) {
    }

    /**
     * Wakes the thread. Never interrupt it: an interrupt during a {@code FileChannel} write
     * closes the channel.
     */
    private static final Mark WAKE = new Mark(null, -1, null, null);

    private final LinkedBlockingQueue<Mark> queue = new LinkedBlockingQueue<>();
    private final Health health;
    private final SettlementListener listener;
    private volatile boolean running = true;
    private volatile Thread thread;

    MarkWriter(Health health, SettlementListener listener) {
        this.health = health;
        this.listener = listener;
    }

    void start(String threadName) {
        Thread t = NamedThreads.daemon(threadName, this);
        thread = t;
        t.start();
    }

    void delivered(Segment segment, int ordinal, DelayId id) {
        queue.add(new Mark(segment, ordinal, id, null));
    }

    @Override
    public void run() {
        List<Mark> batch = new ArrayList<>();
        while (running) {
            try {
                Mark first = queue.take();
                if (first != null) {
                    batch.add(first);
                    queue.drainTo(batch);
                    write(batch);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } finally {
                batch.clear();
            }
        }
    }

    private void write(List<Mark> batch) {
        Set<Segment> touched = new LinkedHashSet<>();
        List<Mark> written = new ArrayList<>(batch.size());
        for (Mark m : batch) {
            if (m.barrier() != null || m == WAKE) {
                continue;
            }
            try {
                m.segment().persistDelivered(m.ordinal());
                touched.add(m.segment());
            } catch (IOException e) {
                markFailed(m, e);
            }
            written.add(m);
        }
        for (Segment segment : touched) {
            try {
                segment.force();
            } catch (IOException e) {
                String what = "could not force the marks of " + segment.dataPath.getFileName()
                        + "; a restart after a power loss may deliver them again: " + e;
                health.error(what);
                log.warn(what);
            }
        }
        for (Mark m : written) {
            // Settled either way: the broker has the message; a lost mark costs a redelivery, not a loss.
            notifySettled(listener, m.id());
        }
        // Barriers last: a test waiting on one sees every mark before it written, forced and reported.
        for (Mark m : batch) {
            if (m.barrier() != null) {
                m.barrier().countDown();
            }
        }
    }

    private void markFailed(Mark m, IOException e) {
        String what = "delivered but could not mark it [segment=" + m.segment().dataPath.getFileName()
                + ", ordinal=" + m.ordinal() + "]; a restart will deliver it again: " + e;
        health.error(what);
        log.warn(what);
    }

    /** Calls someone else's listener: whatever it throws must not stop the engine's thread. */
    static void notifySettled(SettlementListener listener, DelayId id) {
        try {
            listener.settled(id);
        } catch (RuntimeException e) {
            log.warn("Settlement listener failed [id={}]", id, e);
        }
    }

    /** For tests: waits until every mark queued before this call is written. */
    boolean awaitWritten(long timeoutMillis) throws InterruptedException {
        CountDownLatch barrier = new CountDownLatch(1);
        queue.add(new Mark(null, -1, null, barrier));
        return barrier.await(timeoutMillis, TimeUnit.MILLISECONDS);
    }

    /** Stops the thread; with {@code drain}, first writes every mark queued so far. */
    void stop(boolean drain) throws InterruptedException {
        running = false;
        queue.add(WAKE);
        Thread t = thread;
        if (t != null) {
            t.join(TimeUnit.SECONDS.toMillis(10));
        }
        if (drain) {
            List<Mark> rest = new ArrayList<>();
            queue.drainTo(rest);
            write(rest);
        } else {
            queue.clear();
        }
    }
}

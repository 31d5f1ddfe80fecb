package io.lanemq.delay;

import io.lanemq.support.NamedThreads;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 *
 * <p><b>A failed write or force</b> reports nothing: the marks it concerned are written and forced
 * again every {@link #RETRY_MILLIS} ms, with the next batch, and reported once that succeeds. Until
 * then their records' upstream offsets stay held, so a restart (or the server's re-enqueue of a
 * long-held offset) sends them once more: a duplicate, never a loss. The marks waiting meanwhile
 * are bounded by the records delivered since the failure began; the failure is logged and counted
 * in the store's health once, and its end once.
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

    /** How often marks whose write or force failed are tried again while no new mark arrives. */
    static final long RETRY_MILLIS = 1_000;

    private final LinkedBlockingQueue<Mark> queue = new LinkedBlockingQueue<>();
    /** Marks not yet forced because a write or force failed; the writer thread's only (the stop's after it). */
    private final List<Mark> unforced = new ArrayList<>();
    private boolean failing;
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
                Mark first = unforced.isEmpty() ? queue.take() : queue.poll(RETRY_MILLIS, TimeUnit.MILLISECONDS);
                batch.addAll(unforced);
                unforced.clear();
                if (first != null) {
                    batch.add(first);
                    queue.drainTo(batch);
                }
                write(batch);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } finally {
                batch.clear();
            }
        }
    }

    private void write(List<Mark> batch) {
        Map<Segment, List<Mark>> bySegment = new LinkedHashMap<>();
        for (Mark m : batch) {
            if (m.barrier() != null || m == WAKE) {
                continue;
            }
            try {
                m.segment().persistDelivered(m.ordinal());
                bySegment.computeIfAbsent(m.segment(), s -> new ArrayList<>()).add(m);
            } catch (IOException e) {
                failed("could not write the delivered mark of " + m.segment().dataPath.getFileName() + " ordinal "
                        + m.ordinal(), e);
                unforced.add(m);
            }
        }
        for (Map.Entry<Segment, List<Mark>> segment : bySegment.entrySet()) {
            try {
                segment.getKey().force();
            } catch (IOException e) {
                failed("could not force the marks of " + segment.getKey().dataPath.getFileName(), e);
                unforced.addAll(segment.getValue());
                continue;
            }
            for (Mark m : segment.getValue()) {
                notifySettled(listener, m.id());
            }
        }
        if (failing && unforced.isEmpty()) {
            failing = false;
            log.info("Delivered marks are written and forced again; the deliveries held back are reported settled");
        }
        // Barriers last: a test waiting on one sees every mark before it tried, and reported unless it failed.
        for (Mark m : batch) {
            if (m.barrier() != null) {
                m.barrier().countDown();
            }
        }
    }

    /** Once per failure streak: every retry would otherwise log again each second. */
    private void failed(String what, IOException e) {
        if (failing) {
            return;
        }
        failing = true;
        String message = what + "; its deliveries are not reported settled (their offsets stay held, a restart sends "
                + "them again) until a retry every " + RETRY_MILLIS + " ms succeeds: " + e;
        health.error(message);
        log.warn(message);
    }

    /** Calls someone else's listener: whatever it throws must not stop the engine's thread. */
    static void notifySettled(SettlementListener listener, DelayId id) {
        try {
            listener.settled(id);
        } catch (RuntimeException e) {
            log.warn("Settlement listener failed [id={}]", id, e);
        }
    }

    /** For tests: waits until every mark queued before this call was tried (written, or failed and kept for a retry). */
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
            List<Mark> rest = new ArrayList<>(unforced);
            unforced.clear();
            queue.drainTo(rest);
            write(rest);
        } else {
            queue.clear();
        }
    }
}

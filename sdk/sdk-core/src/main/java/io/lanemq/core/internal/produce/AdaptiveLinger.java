package io.lanemq.core.internal.produce;

import io.lanemq.support.Ticker;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Whether a send that finds its queue idle should wait out the linger for others to join it: only while recent
 * lingers of that queue gathered something. A linger costs its wait on every message it holds and saves a request
 * only when another send arrives within it: worth it for several senders or a steady async stream (a paced 500
 * msgs/s per cluster gathers about two per request with 2 ms), never for one synchronous sender (nothing can join
 * while it waits) nor a sparse stream. So each queue keeps a moving average of the messages its lingers gathered
 * besides the first; at a quarter of a message or more it lingers, below it sends at once and tries one linger again a
 * second later, so a stream that became dense is noticed.
 *
 * <p>A queue seen for the first time sends at once: a stream of sends with ever new sharding keys never lingers.
 * Not thread-safe: guarded by the gathering's lock.
 */
final class AdaptiveLinger {
    /**
     * A linger must gather this many other messages on average to be worth its wait: below it, most lingers hold a
     * message for nothing (a stream that gathers a quarter of a message per linger sends four of five alone).
     */
    static final double WORTH_IT = 0.25;
    static final long RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** Queues remembered (physical topic and sharding key); the least recently used is forgotten first. */
    private static final int MAX_QUEUES = 1024;
    /**
     * Weight of the newest linger in the average: a change of rate shows within ten lingers, and one linger that
     * gathered nothing in a stream that gathers one on average (a Poisson stream: a third of them) does not stop it.
     */
    private static final double NEWEST = 0.2;

    private final Ticker ticker;
    private final Map<Object, Stats> queues = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Object, Stats> eldest) {
            return size() > MAX_QUEUES;
        }
    };

    AdaptiveLinger(Ticker ticker) {
        this.ticker = ticker;
    }

    private static final class Stats {
        double joined;
        long lastTry;
        /** The linger under way is a try: its outcome replaces the average, which is below the bar. */
        boolean trying;
    }

    /** Whether a send of {@code queue} that finds it idle should linger now. */
    boolean worthWaiting(Object queue) {
        long now = ticker.read();
        Stats stats = queues.get(queue);
        if (stats == null) {
            stats = new Stats();
            stats.lastTry = now;
            queues.put(queue, stats);
            return false;
        }
        if (stats.joined >= WORTH_IT) {
            return true;
        }
        if (now - stats.lastTry >= RETRY_NANOS) {
            stats.lastTry = now;
            stats.trying = true;
            return true;
        }
        return false;
    }

    /** A linger of {@code queue} ended with {@code gathered} messages in its request (the first one included). */
    void lingered(Object queue, int gathered) {
        Stats stats = queues.get(queue);
        if (stats != null) {
            int others = Math.max(0, gathered - 1);
            stats.joined = stats.trying ? others : (1 - NEWEST) * stats.joined + NEWEST * others;
            stats.trying = false;
        }
    }
}

package io.lanemq.core.internal.produce;

import io.lanemq.support.Ticker;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * When each cluster last answered a send, and last answered one quickly: the evidence that decides whether an
 * attempt that has gone unanswered is a sign of its cluster failing, or of the whole host (or network) being slow.
 *
 * <p>Abandoning an attempt stores a second copy if it still succeeds. That is the right price while another
 * cluster is answering in milliseconds (the attempt's cluster is the odd one out: a silent partition, a stalled
 * broker), and the wrong one when every cluster is slow: when a busy host stalls every send for a second or two at
 * once, giving up on each only doubles the messages.
 *
 * <p>It also keeps each cluster's usual answer time, the way TCP keeps a connection's (RFC 6298: a smoothed
 * round trip and its mean deviation), so "silent" is measured against how this cluster answers now: see
 * {@link #patienceNanos}.
 */
final class ClusterPulse {
    /** Per cluster: when it last answered, and last answered quickly. Written on every answer, so no new map entry each time. */
    private final Map<String, Marks> marks = new ConcurrentHashMap<>();
    private final Ticker ticker;

    ClusterPulse(Ticker ticker) {
        this.ticker = ticker;
    }

    /** Records an answer of {@code cluster} that took {@code latencyNanos}, if it is at most {@code quickNanos}. */
    void answered(String cluster, long latencyNanos, long quickNanos) {
        long now = ticker.read();
        Marks m = marks.computeIfAbsent(cluster, c -> new Marks());
        m.sample(Math.max(0, latencyNanos));
        m.answer = now;
        if (!m.answered) {
            m.firstAnswer = now;
            m.answered = true;
        }
        if (latencyNanos <= quickNanos) {
            m.quickAnswer = now;
            m.quick = true;
        }
    }

    /**
     * True when {@code cluster} had answered a send before {@code sinceNanos}. An attempt started before that first
     * answer is cold: it waits for the route lookup and the connection as the first sends do, which on a loaded host
     * took over a second (see {@link SendAttempts#overdue}). Judging it by an answer that came while it waited gave up
     * on it just before its own answer, and stored it twice.
     */
    boolean answeredBefore(String cluster, long sinceNanos) {
        Marks m = marks.get(cluster);
        return m != null && m.answered && m.firstAnswer - sinceNanos < 0;
    }

    /**
     * True when {@code cluster} answered sends before {@code sinceNanos} and none since: a connection that worked and
     * went quiet. A cluster that never answered yet is not "silent" but cold: its first sends wait for a route
     * lookup and a connection, hundreds of milliseconds on a busy host, and giving up on them then stores copies
     * of a whole burst.
     */
    boolean silentSince(String cluster, long sinceNanos) {
        Marks m = marks.get(cluster);
        return m != null && m.answered && m.answer - sinceNanos < 0;
    }

    /**
     * How long a cluster that went quiet is waited for before it counts as stalled: its smoothed answer time plus
     * four mean deviations (TCP's retransmission timeout, RFC 6298 section 2), within {@code [floorNanos,
     * ceilingNanos]}. On a quiet host answers take milliseconds and the floor applies, so a silent partition is
     * still noticed at the floor. On a host so busy that this cluster's answers take hundreds of milliseconds,
     * 250 ms of quiet is its normal pace, and giving up then would store copies.
     */
    long patienceNanos(String cluster, long floorNanos, long ceilingNanos) {
        Marks m = marks.get(cluster);
        long estimate = m == null ? 0 : m.timeoutNanos();
        return Math.min(ceilingNanos, Math.max(floorNanos, estimate));
    }

    /** True when a cluster other than {@code cluster} answered quickly at or after {@code sinceNanos}. */
    boolean otherAnsweredSince(String cluster, long sinceNanos) {
        for (Map.Entry<String, Marks> entry : marks.entrySet()) {
            Marks m = entry.getValue();
            if (!entry.getKey().equals(cluster) && m.quick && m.quickAnswer - sinceNanos >= 0) {
                return true;
            }
        }
        return false;
    }

    /** A cluster's latest answers; a reader may see one a moment old, which only delays a failover by one check. */
    private static final class Marks {
        volatile long answer;
        volatile long firstAnswer;
        volatile long quickAnswer;
        volatile boolean answered;
        volatile boolean quick;
        /** RFC 6298's SRTT and RTTVAR, in nanoseconds; guarded by this. Once per request, not per message. */
        private long smoothed;
        private long deviation;
        private boolean sampled;

        synchronized void sample(long latencyNanos) {
            if (!sampled) {
                smoothed = latencyNanos;
                deviation = latencyNanos / 2;
                sampled = true;
                return;
            }
            deviation += (Math.abs(smoothed - latencyNanos) - deviation) / 4;
            smoothed += (latencyNanos - smoothed) / 8;
        }

        synchronized long timeoutNanos() {
            return sampled ? smoothed + 4 * deviation : 0;
        }
    }
}

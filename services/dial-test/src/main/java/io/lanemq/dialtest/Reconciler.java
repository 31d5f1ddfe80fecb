package io.lanemq.dialtest;

import io.lanemq.support.Ticker;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Matches acks to tracked probes and, once per period, declares lost every probe not acked by its deadline.
 *
 * <p>A tracked probe is registered before it is sent (its ack may beat the send's own callback). It is due at its
 * send time, or at send time plus the delay for a delayed probe; its deadline is the due time plus the grace (plus
 * the check-back allowance for a transaction resolved by check-back). Reconciling every period, a probe not acked
 * by its deadline is declared lost within one period after it: "not acked within period + grace". The first ack of
 * a pending probe counts as acked with its latency from the due time; any further ack of the same sequence counts
 * as a duplicate; a first ack after the probe was declared lost (or its send failed) counts as late. Resolved
 * probes are remembered for the retention, so duplicates arriving that long after are still recognized.
 *
 * <p>A probe is judged lost only over time in which its broker could be reached. While sends to a broker go
 * unanswered (timeouts, refused or broken connections: a silent partition, a dead link, a dead broker), the probes
 * it accepted before cannot be consumed either, and nothing says they are gone: the broker is failing, which its
 * send failures report. So each send failure without an answer from the broker restarts the patience (grace plus
 * allowance) of every probe still pending on that broker; once the broker answers again, its probes have that long
 * to arrive, and only then count lost. A failure the broker answered (an error code, e.g. busy) proves it reachable
 * and changes no deadline. Without this, a silent partition of an IDC would report the transactional probes stored
 * there before it as lost: their check-back can only come after the heal, past their deadline, though every one of
 * them arrives.
 *
 * <p>Thread-safe: tracking, sends and acks may come from any thread; {@link #reconcile()} and {@link #totals()}
 * are serialized. Time comes from the injected {@link Ticker} and {@link InstantSource} only, so tests advance it instead of sleeping.
 */
public final class Reconciler implements AckSink {

    private final long runId;
    private final Ticker ticker;
    private final InstantSource wallClock;
    private final long graceNanos;
    private final long retentionNanos;
    private final DialTestMetrics metrics;
    private final ConcurrentSkipListMap<LaneKey, LaneStats> lanes = new ConcurrentSkipListMap<>();
    private final ConcurrentHashMap<Long, TrackedProbe> probes = new ConcurrentHashMap<>();
    /** Per broker (cluster, broker): when a send to it last went unanswered. */
    private final ConcurrentHashMap<List<String>, BrokerContact> brokers = new ConcurrentHashMap<>();
    private final long startNanos;
    private Map<LaneKey, LaneCounts> previous = new HashMap<>();
    private long previousNanos;
    private double previousRejected;
    private volatile Supplier<Map<String, Integer>> weights = Map::of;

    /**
     * @param grace     how long after its due time a probe may be acked before it counts as lost
     * @param retention how long a resolved probe is remembered to recognize duplicate acks
     */
    public Reconciler(long runId, Ticker ticker, InstantSource wallClock, Duration grace, Duration retention, DialTestMetrics metrics) {
        this.runId = runId;
        this.ticker = ticker;
        this.wallClock = wallClock;
        this.graceNanos = grace.toNanos();
        this.retentionNanos = retention.toNanos();
        this.metrics = metrics;
        this.startNanos = ticker.read();
        this.previousNanos = startNanos;
        metrics.pendingProbes(this::pending);
    }

    public long runId() {
        return runId;
    }

    /** Where each report reads the send weights in force for the probed logic topic ({@link Report#weights()}). */
    void weightsFrom(Supplier<Map<String, Integer>> weights) {
        this.weights = weights;
    }

    /** The lane's counters, created (and its meters registered) on first use. */
    LaneStats lane(LaneKey key) {
        return lanes.computeIfAbsent(key, k -> new LaneStats(k, metrics.lane(k)));
    }

    private BrokerContact broker(LaneKey key) {
        return brokers.computeIfAbsent(List.of(key.cluster(), key.broker()), k -> new BrokerContact());
    }

    /**
     * Registers a tracked probe before it is sent.
     *
     * @param dueAfterNanos  how long after {@code sendNanos} the probe is due (its delay; 0 for immediate kinds)
     * @param allowanceNanos extra time before it counts as lost (a transaction check-back), on top of the grace
     */
    void track(long sequence, LaneStats lane, long sendNanos, long dueAfterNanos, long allowanceNanos) {
        long due = sendNanos + dueAfterNanos;
        probes.put(sequence, new TrackedProbe(lane, broker(lane.key()), due, due + graceNanos + allowanceNanos));
    }

    /**
     * Registers a tracked probe whose lane is known only once its send completed ({@link #routed}): a probe through the
     * SDK's routing, whose lane is the cluster that stored it. Until then it belongs to {@code unrouted}, where it counts
     * if its send never completes; an ack arriving before the send's completion is held and counted on the routed lane.
     */
    void trackRouted(long sequence, LaneStats unrouted, long sendNanos) {
        TrackedProbe probe = new TrackedProbe(unrouted, broker(unrouted.key()), sendNanos, sendNanos + graceNanos);
        probe.routed = false;
        probes.put(sequence, probe);
    }

    /**
     * A probe was stored on {@code lane}'s cluster (tracked or not): counted as sent there, and a tracked one moves to
     * that lane with any ack that came first.
     */
    void routed(long sequence, LaneStats lane, boolean tracked) {
        lane.sent();
        TrackedProbe probe = tracked ? probes.get(sequence) : null;
        if (probe == null) {
            return;
        }
        long[] held;
        synchronized (probe) {
            probe.lane = lane;
            probe.broker = broker(lane.key());
            probe.routed = true;
            held = probe.heldAcks;
            probe.heldAcks = new long[0];
        }
        for (long receivedNanos : held) {
            count(probe, receivedNanos);
        }
    }

    /**
     * Sends to {@code key}'s cluster and broker cannot be answered now (its IDC judged down by the SDK's routing): the
     * probes pending there get their patience again from now, as after an unanswered send.
     */
    void unanswered(LaneKey key) {
        broker(key).unanswered(ticker.read());
    }

    /** The broker accepted a probe (tracked or not). */
    void sent(LaneStats lane) {
        lane.sent();
    }

    /**
     * The broker did not accept a probe: it counts as a send failure, never as lost.
     *
     * @param brokerAnswered whether the broker answered the send (with an error); if it did not, it may be
     *                       unreachable, and the probes pending on it get their patience again from now
     */
    void sendFailed(LaneStats lane, long sequence, boolean tracked, boolean brokerAnswered) {
        if (!brokerAnswered) {
            broker(lane.key()).unanswered(ticker.read());
        }
        lane.sendFailed();
        if (tracked) {
            TrackedProbe probe = probes.get(sequence);
            if (probe != null && probe.resolve(TrackedProbe.FAILED) && !probe.routed) {
                // A routed probe's send may fail after it was stored and consumed (a timeout): its held acks came late.
                synchronized (probe) {
                    for (int i = 0; i < probe.heldAcks.length; i++) {
                        lane.late();
                    }
                    probe.heldAcks = new long[0];
                    probe.routed = true;
                }
            }
        }
    }

    @Override
    public Outcome onAck(AckFrame frame, long receivedNanos) {
        if (frame.runId() != runId) {
            return Outcome.UNKNOWN_RUN;
        }
        TrackedProbe probe = probes.get(frame.sequence());
        if (probe == null) {
            return Outcome.UNKNOWN_PROBE;
        }
        if (!probe.routed) {
            synchronized (probe) {
                if (!probe.routed) {
                    probe.heldAcks = Arrays.copyOf(probe.heldAcks, probe.heldAcks.length + 1);
                    probe.heldAcks[probe.heldAcks.length - 1] = receivedNanos;
                    return Outcome.MATCHED;
                }
            }
        }
        count(probe, receivedNanos);
        return Outcome.MATCHED;
    }

    private static void count(TrackedProbe probe, long receivedNanos) {
        if (probe.countAck() > 1) {
            probe.lane.duplicated();
        } else if (probe.resolve(TrackedProbe.ACKED)) {
            probe.lane.acked(receivedNanos - probe.dueNanos);
        } else {
            probe.lane.late();
        }
    }

    /** Tracked probes awaiting an ack. */
    public int pending() {
        int pending = 0;
        for (TrackedProbe probe : probes.values()) {
            if (probe.state == TrackedProbe.PENDING) {
                pending++;
            }
        }
        return pending;
    }

    /** The latest deadline of any pending probe, or empty when none is pending: how long a drain may take. */
    OptionalLong latestDeadline() {
        return probes.values().stream().filter(p -> p.state == TrackedProbe.PENDING)
            .mapToLong(TrackedProbe::effectiveDeadline).max();
    }

    /**
     * Declares lost every pending probe past its deadline, forgets resolved probes past the retention, and
     * reports the period since the previous call.
     */
    public synchronized Report reconcile() {
        long now = ticker.read();
        for (Iterator<TrackedProbe> it = probes.values().iterator(); it.hasNext(); ) {
            TrackedProbe probe = it.next();
            if (probe.state == TrackedProbe.PENDING) {
                if (now - probe.effectiveDeadline() >= 0 && probe.resolve(TrackedProbe.LOST)) {
                    probe.lane.lost();
                }
            } else if (now - probe.dueNanos >= retentionNanos) {
                it.remove();
            }
        }
        long epochMillis = wallClock.millis();
        metrics.reconciled(epochMillis);
        Map<LaneKey, LaneCounts> current = new HashMap<>();
        List<LaneReport> rows = new ArrayList<>();
        for (LaneStats lane : lanes.values()) {
            LaneCounts counts = lane.counts();
            current.put(lane.key(), counts);
            rows.add(new LaneReport(lane.key(), counts.minus(previous.getOrDefault(lane.key(), LaneCounts.ZERO)),
                LatencySummary.of(lane.takeInterval())));
        }
        double rejected = totalRejected();
        Report report = new Report(epochMillis, Duration.ofNanos(now - previousNanos), rows, pending(),
            (long) (rejected - previousRejected), weights.get());
        previous = current;
        previousNanos = now;
        previousRejected = rejected;
        return report;
    }

    /**
     * The period under way starts now: called as probing starts, so the first period's span (against which a stress
     * step's expected sends are counted) leaves out the set-up before it.
     */
    synchronized void periodStartsNow() {
        previousNanos = ticker.read();
    }

    /** The whole run so far: cumulative counts, and latency up to the last {@link #reconcile()}. */
    public synchronized Report totals() {
        List<LaneReport> rows = new ArrayList<>();
        for (LaneStats lane : lanes.values()) {
            rows.add(new LaneReport(lane.key(), lane.counts(), LatencySummary.of(lane.total())));
        }
        return new Report(wallClock.millis(), Duration.ofNanos(ticker.read() - startNanos), rows, pending(),
            (long) totalRejected(), weights.get());
    }

    private double totalRejected() {
        double sum = 0;
        for (AckRejection reason : AckRejection.values()) {
            sum += metrics.rejectedCount(reason);
        }
        return sum;
    }

    /** When sends to one broker last went unanswered ({@code Long.MIN_VALUE}: never), on the clock's nanos. */
    private static final class BrokerContact {
        private final AtomicLong lastUnansweredNanos = new AtomicLong(Long.MIN_VALUE);

        void unanswered(long nanos) {
            lastUnansweredNanos.accumulateAndGet(nanos, (a, b) -> a == Long.MIN_VALUE || b - a > 0 ? b : a);
        }

        /** The last unanswered send's time, or empty if none was. */
        OptionalLong lastUnanswered() {
            long last = lastUnansweredNanos.get();
            return last == Long.MIN_VALUE ? OptionalLong.empty() : OptionalLong.of(last);
        }
    }

    /** One tracked probe: about 100 bytes with its map entry, so the retention bounds the memory. */
    private static final class TrackedProbe {
        static final int PENDING = 0;
        static final int ACKED = 1;
        static final int LOST = 2;
        static final int FAILED = 3;
        private static final AtomicIntegerFieldUpdater<TrackedProbe> STATE =
            AtomicIntegerFieldUpdater.newUpdater(TrackedProbe.class, "state");
        private static final AtomicIntegerFieldUpdater<TrackedProbe> ACKS =
            AtomicIntegerFieldUpdater.newUpdater(TrackedProbe.class, "acks");

        /** Final but for a routed probe, whose lane and broker are set once its send completed. */
        volatile LaneStats lane;
        volatile BrokerContact broker;
        /** False for a routed probe until its send completed; acks until then are held ({@link #heldAcks}). */
        volatile boolean routed = true;
        /** When acks arrived before the probe was routed; guarded by this probe. */
        long[] heldAcks = new long[0];
        final long dueNanos;
        final long deadlineNanos;
        volatile int state;
        volatile int acks;

        TrackedProbe(LaneStats lane, BrokerContact broker, long dueNanos, long deadlineNanos) {
            this.lane = lane;
            this.broker = broker;
            this.dueNanos = dueNanos;
            this.deadlineNanos = deadlineNanos;
        }

        /**
         * Its deadline, or, if a send to its broker went unanswered since, that moment plus the probe's patience
         * (grace plus allowance): the time it may take once the broker can be reached again.
         */
        long effectiveDeadline() {
            OptionalLong unanswered = broker.lastUnanswered();
            if (unanswered.isEmpty()) {
                return deadlineNanos;
            }
            long held = unanswered.getAsLong() + (deadlineNanos - dueNanos);
            return held - deadlineNanos > 0 ? held : deadlineNanos;
        }

        /** Moves a pending probe to {@code resolved}; false if something resolved it first. */
        boolean resolve(int resolved) {
            return STATE.compareAndSet(this, PENDING, resolved);
        }

        int countAck() {
            return ACKS.incrementAndGet(this);
        }
    }
}

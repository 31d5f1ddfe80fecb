package io.lanemq.failover;

import io.lanemq.support.Ticker;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.function.Supplier;

/**
 * Keeps every callee's latency average and decides which callees are slow against their peers
 * (see {@link LatencyPolicy}).
 *
 * <p>A success only adds its sample to the callee's striped sums and reads the callee's slow
 * flag, so concurrent successes do not contend. Once per refresh interval, whichever success
 * first finds the judgement stale folds every callee's sums into its average, recomputes the
 * peers' baseline and re-flags the callees: O(callees) per interval instead of per call.
 *
 * <p>Peers that cannot speak for the present are left out of the baseline: down callees, and
 * averages with no sample for {@value #STALE_HALF_LIVES} half-lives (a cluster that went dark
 * an hour ago at 5 ms must not make today's 30 ms look slow). A callee is not judged during its
 * first half-life of samples, so the outlier that often comes with a first call (connection set
 * up, routes fetched) cannot brand it slow before its average has settled.
 */
final class LatencyJudge<T> {

    static final int STALE_HALF_LIVES = 8;

    private static final VarHandle NEXT_REFRESH;

    static {
        try {
            NEXT_REFRESH = MethodHandles.lookup().findVarHandle(LatencyJudge.class, "nextRefreshNanos", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Ticker ticker;
    private final Supplier<Membership<T>> membership;
    private final double decayPerNano;
    private final long halfLifeNanos;
    private final double slowRatio;
    private final double slowMarginNanos;
    private final long refreshNanos;
    private final boolean median;

    private volatile long nextRefreshNanos;
    /** The peers' baseline at the last refresh; NaN while no peer has a current average. */
    private volatile double lastBaseline = Double.NaN;

    LatencyJudge(LatencyPolicy policy, Ticker ticker, Supplier<Membership<T>> membership) {
        this.ticker = ticker;
        this.membership = membership;
        this.halfLifeNanos = policy.halfLife().toNanos();
        this.decayPerNano = Math.log(2) / halfLifeNanos;
        this.slowRatio = policy.slowRatio();
        this.slowMarginNanos = policy.slowMargin().toNanos();
        this.refreshNanos = policy.refreshInterval().toNanos();
        this.median = policy.baseline() == LatencyPolicy.Baseline.MEDIAN;
        this.nextRefreshNanos = ticker.read();
    }

    /** Records the sample and returns whether the callee is currently judged slow. */
    boolean recordSuccess(Callee<T> callee, long latencyNanos) {
        callee.addSample(latencyNanos);
        long now = ticker.read();
        long due = nextRefreshNanos;
        // The CAS elects one refresher per interval; a refresh takes microseconds, far less
        // than an interval, so two never overlap in practice.
        if (now - due >= 0 && NEXT_REFRESH.compareAndSet(this, due, now + refreshNanos)) {
            refresh(now);
        }
        return callee.isSlow();
    }

    private void refresh(long now) {
        Callee<T>[] callees = membership.get().callees();
        for (Callee<T> callee : callees) {
            callee.fold(now, decayPerNano);
        }
        double baseline = baseline(callees, now);
        lastBaseline = baseline;
        for (Callee<T> callee : callees) {
            callee.setSlow(isSlow(callee, baseline, now));
        }
    }

    /**
     * Whether one answer, on its own, is as slow as a slow callee's average (against the last baseline). A callee
     * on a trickle is judged by each answer too: a handful of samples a second make a noisy average, and under
     * packet loss most of them are fast, so the average alone let a lossy callee back onto a share of the traffic
     * every few seconds.
     */
    boolean isSlowAnswer(long latencyNanos) {
        double baseline = lastBaseline;
        return baseline == baseline && latencyNanos >= baseline * slowRatio && latencyNanos - baseline >= slowMarginNanos;
    }

    private boolean isSlow(Callee<T> callee, double baseline, long now) {
        double ewma = callee.ewmaNanos();
        // Hysteresis: a slow callee stays slow until its average is below half the margin. A callee whose
        // average hovers at the line (10% packet loss: most answers in a millisecond, one in five after a 200 ms+
        // retransmission) would otherwise be let back onto a share of the traffic every few seconds, and each
        // time its stalls would hold every caller that picked it until it was judged slow again.
        double margin = callee.isSlow() ? slowMarginNanos / 2 : slowMarginNanos;
        return baseline == baseline // NaN: no peer has a current average
                && ewma == ewma
                && now - callee.firstSampleNanos() >= halfLifeNanos
                && ewma >= baseline * slowRatio
                && ewma - baseline >= margin;
    }

    private double baseline(Callee<T>[] callees, long now) {
        long staleAfter = STALE_HALF_LIVES * halfLifeNanos;
        double[] averages = median ? new double[callees.length] : null;
        int count = 0;
        double best = Double.NaN;
        for (Callee<T> c : callees) {
            double ewma = c.ewmaNanos();
            if (ewma != ewma || c.weight() <= 0 || now - c.lastSampleNanos() > staleAfter) {
                continue;
            }
            if (median) {
                averages[count] = ewma;
            } else if (!(ewma >= best)) {
                best = ewma;
            }
            count++;
        }
        if (!median || count == 0) {
            return best;
        }
        Arrays.sort(averages, 0, count);
        return averages[(count - 1) / 2];
    }
}

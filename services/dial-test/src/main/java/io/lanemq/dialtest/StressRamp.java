package io.lanemq.dialtest;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The stress ramp's step logic, fed one report per step (the reconciliation period is the step): it judges the
 * step, then names the next rate or ends the ramp at the first step with loss, send failures, a worst-lane p99
 * over the limit, fewer than {@value #MIN_SENT_SHARE} of the expected sends issued (the senders could not keep
 * the rate: a rate asked for is not a rate reached) or nothing sent, or after the step at the maximum rate.
 * Time-free, so tests feed it synthetic reports.
 *
 * <p>Loss is declared a grace after a probe's due time, so a grace shorter than a step pins each loss to its own
 * step; with a longer one a loss may show one or two steps late, and the ramp stops there.
 *
 * <p>Thread-safe: the reconciler thread feeds it, another thread may read the result.
 */
public final class StressRamp {

    /** The share of a step's expected sends (rate x span x lanes) that must have been issued for it to count. */
    static final double MIN_SENT_SHARE = 0.95;

    private final StressOptions config;
    private final List<StressStep> steps = new ArrayList<>();
    private boolean finished;

    public StressRamp(StressOptions config) {
        this.config = config;
    }

    /** The rate of the step under way (or of the last step, once finished). */
    public synchronized double currentRate() {
        return config.rateOfStep(Math.max(0, finished ? steps.size() - 1 : steps.size()));
    }

    /**
     * Judges the step just reconciled, run at {@link #currentRate()}.
     *
     * @return the next step's rate, or empty when the ramp is over (and for any report after that)
     */
    public synchronized OptionalDouble onStep(Report report) {
        if (finished) {
            return OptionalDouble.empty();
        }
        double rate = currentRate();
        StressStep step = judge(rate, report);
        steps.add(step);
        if (!step.clean() || rate >= config.maxRate()) {
            finished = true;
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(currentRate());
    }

    /** True once a step broke or the maximum rate was run. */
    public synchronized boolean finished() {
        return finished;
    }

    /** The steps so far, in order. */
    public synchronized List<StressStep> steps() {
        return List.copyOf(steps);
    }

    /** The last clean step before anything broke. */
    public synchronized Optional<StressStep> highestClean() {
        StressStep clean = null;
        for (StressStep step : steps) {
            if (!step.clean()) {
                break;
            }
            clean = step;
        }
        return Optional.ofNullable(clean);
    }

    /** The step where something broke, if any did. */
    public synchronized Optional<StressStep> breaking() {
        return steps.stream().filter(s -> !s.clean()).findFirst();
    }

    public StressOptions config() {
        return config;
    }

    private StressStep judge(double rate, Report report) {
        LaneCounts total = report.total();
        long p50 = 0;
        long p99 = 0;
        for (LaneReport lane : report.lanes()) {
            if (lane.latency().count() > 0) {
                p50 = Math.max(p50, lane.latency().p50Micros());
                p99 = Math.max(p99, lane.latency().p99Micros());
            }
        }
        List<String> breaches = new ArrayList<>();
        if (total.lost() > 0) {
            breaches.add(total.lost() + (total.lost() == 1 ? " probe" : " probes") + " lost");
        }
        if (total.sendFailures() > 0) {
            breaches.add(total.sendFailures() + (total.sendFailures() == 1 ? " send failure" : " send failures"));
        }
        long limitMicros = config.p99Limit().toNanos() / 1000;
        if (p99 > limitMicros) {
            breaches.add("p99 " + millis(p99) + " ms > " + millis(limitMicros) + " ms");
        }
        double laneSeconds = report.lanes().size() * (report.span().toNanos() / 1e9);
        long expected = Math.round(rate * laneSeconds);
        if (total.attempted() == 0) {
            breaches.add("nothing sent");
        } else if (total.attempted() < MIN_SENT_SHARE * expected) {
            breaches.add(String.format(Locale.ROOT, "sent %,d of %,d expected (%.0f%%), %,d dropped", total.attempted(),
                expected, 100.0 * total.attempted() / expected, total.dropped()));
        }
        double achieved = laneSeconds == 0 ? 0 : total.attempted() / laneSeconds;
        return new StressStep(rate, achieved, total, p50, p99, breaches);
    }

    /** Whole milliseconds with thousands separators, tenths below 10 ms: {@code 1,240}, {@code 3.5}. */
    static String millis(long micros) {
        return micros < 10_000 ? String.format(Locale.ROOT, "%.1f", micros / 1000.0)
            : String.format(Locale.ROOT, "%,d", Math.round(micros / 1000.0));
    }
}

package io.lanemq.dialtest;

import java.util.List;

/**
 * One step of a stress ramp: its rate, its counts over all lanes, the worst lane's latency percentiles (stress is
 * per broker and per kind, so the worst lane is the one that breaks), and what broke, if anything.
 *
 * @param rate      probes per second per broker and per kind the step asked for
 * @param achieved  probes per second per broker and per kind the senders issued (sent or failed), over the step
 * @param counts    all lanes added up, as reconciled during the step
 * @param p50Micros the highest p50 of any lane, 0 when nothing was acked
 * @param p99Micros the highest p99 of any lane, 0 when nothing was acked
 * @param breaches  what broke at this step, e.g. {@code 3 probes lost}; empty for a clean step
 */
public record StressStep(double rate, double achieved, LaneCounts counts, long p50Micros, long p99Micros, List<String> breaches) {

    public StressStep {
        breaches = List.copyOf(breaches);
    }

    public boolean clean() {
        return breaches.isEmpty();
    }
}

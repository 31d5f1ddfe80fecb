package io.lanemq.dialtest;

/**
 * The probe rate per broker and per kind, adjustable while a run goes (the stress ramp raises it step by step).
 * The pacing threads read it on every round; a change paces from the moment it is seen, with no catch-up burst.
 * Thread-safe.
 */
public final class ProbeRate {

    private volatile double perSecond;

    public ProbeRate(double perSecond) {
        set(perSecond);
    }

    /** Probes per second, per broker and per kind. */
    public double get() {
        return perSecond;
    }

    public void set(double perSecond) {
        if (!(perSecond > 0 && perSecond <= DialTestOptions.MAX_RATE)) {
            throw new IllegalArgumentException("ratePerSecond must be in (0, " + (long) DialTestOptions.MAX_RATE + "]: "
                + perSecond);
        }
        this.perSecond = perSecond;
    }
}

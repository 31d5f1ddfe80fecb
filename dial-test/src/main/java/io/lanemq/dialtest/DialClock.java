package io.lanemq.dialtest;

/**
 * The time source of the dial test, injected so reconciliation tests advance time instead of sleeping.
 * {@link #nanos()} is monotonic (durations, deadlines, latency); {@link #epochMillis()} is wall time (probe
 * bodies, the last-reconciliation gauge).
 */
public interface DialClock {

    /** Monotonic nanoseconds, like {@link System#nanoTime()}. */
    long nanos();

    /** Wall-clock milliseconds since the epoch, like {@link System#currentTimeMillis()}. */
    long epochMillis();

    /** The system clock. */
    static DialClock system() {
        return SystemClock.INSTANCE;
    }

    /** The system clock as an enum singleton. */
    enum SystemClock implements DialClock {
        INSTANCE;

        @Override
        public long nanos() {
            return System.nanoTime();
        }

        @Override
        public long epochMillis() {
            return System.currentTimeMillis();
        }
    }
}

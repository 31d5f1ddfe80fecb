package io.lanemq.support;

import java.time.InstantSource;
import java.util.Objects;

/**
 * The two clocks a component reads, handed down as one: the monotonic {@link Ticker} for durations, deadlines and
 * timeouts, the wall {@link InstantSource} for due times and timestamps. Production passes {@link #system()}; a test
 * passes one {@link FakeClock} as both ({@link #of(FakeClock)}) and advances it instead of sleeping.
 */
public record Clocks(Ticker ticker, InstantSource wall) {
    private static final Clocks SYSTEM = new Clocks(Ticker.system(), InstantSource.system());

    public Clocks {
        Objects.requireNonNull(ticker, "ticker");
        Objects.requireNonNull(wall, "wall");
    }

    /** {@link System#nanoTime()} and the system's wall clock. */
    public static Clocks system() {
        return SYSTEM;
    }

    /** One fake clock as both: {@link FakeClock#advance} moves them together. */
    public static Clocks of(FakeClock clock) {
        return new Clocks(clock, clock);
    }
}

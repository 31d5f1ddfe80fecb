package io.lanemq.support;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Both clocks, monotonic and wall, moved only by hand: what tests inject instead of sleeping (as Micrometer's
 * {@code MockClock}, it ships in main code so every module's tests share one). {@link #advance} moves both
 * together; {@link #setInstant} jumps the wall clock alone, as NTP may. Thread-safe.
 */
public final class FakeClock implements Ticker, InstantSource {
    /** Where a fresh clock's wall time starts: 2027-01-15T08:00:00Z, on a minute boundary. */
    public static final Instant START = Instant.ofEpochMilli(1_800_000_000_000L);

    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final AtomicLong epochMillis;

    public FakeClock() {
        this(START);
    }

    public FakeClock(Instant start) {
        this.epochMillis = new AtomicLong(start.toEpochMilli());
    }

    @Override
    public long read() {
        return nanos.get();
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(epochMillis.get());
    }

    @Override
    public long millis() {
        return epochMillis.get();
    }

    /** Moves both clocks forward by {@code duration} (the wall clock at millisecond resolution). */
    public void advance(Duration duration) {
        nanos.addAndGet(duration.toNanos());
        epochMillis.addAndGet(duration.toMillis());
    }

    /** Sets the wall clock alone, forwards or backwards; the ticker does not move. */
    public void setInstant(Instant instant) {
        epochMillis.set(instant.toEpochMilli());
    }
}

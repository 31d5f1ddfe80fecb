package io.lanemq.delay;

import java.util.concurrent.atomic.AtomicLong;

/** A wall clock that moves only when a test moves it. */
final class FakeClock implements WallClock {

    static final long START = 1_800_000_000_000L; // 2027-01-15, on a minute boundary

    private final AtomicLong now = new AtomicLong(START);

    @Override
    public long millis() {
        return now.get();
    }

    void set(long millis) {
        now.set(millis);
    }
}

package io.lanemq.dialtest;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** A clock tests advance by hand. */
final class FakeClock implements DialClock {

    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final AtomicLong epochMillis = new AtomicLong(1_700_000_000_000L);

    @Override
    public long nanos() {
        return nanos.get();
    }

    @Override
    public long epochMillis() {
        return epochMillis.get();
    }

    void advance(Duration d) {
        nanos.addAndGet(d.toNanos());
        epochMillis.addAndGet(d.toMillis());
    }
}

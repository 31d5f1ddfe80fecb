package io.lanemq.testkit;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** A point in time to wait until, on the monotonic clock, with a polling wait for a condition. */
final class Deadline {

    private static final long POLL_NANOS = Duration.ofMillis(50).toNanos();

    private final long deadlineNanos;
    private final Duration budget;

    private Deadline(Duration budget) {
        this.budget = budget;
        this.deadlineNanos = System.nanoTime() + budget.toNanos();
    }

    static Deadline after(Duration budget) {
        return new Deadline(budget);
    }

    Duration budget() {
        return budget;
    }

    Duration remaining() {
        return Duration.ofNanos(Math.max(0, deadlineNanos - System.nanoTime()));
    }

    boolean expired() {
        return deadlineNanos - System.nanoTime() <= 0;
    }

    /** Polls {@code condition} until it holds (true) or the deadline passes (false). */
    boolean await(BooleanSupplier condition) {
        while (true) {
            if (condition.getAsBoolean()) {
                return true;
            }
            long left = deadlineNanos - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            try {
                Thread.sleep(Duration.ofNanos(Math.min(left, POLL_NANOS)).toMillis() + 1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TestkitException("interrupted while waiting", e);
            }
        }
    }
}

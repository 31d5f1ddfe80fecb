package io.lanemq.proxy;

import java.util.HashSet;
import java.util.OptionalLong;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * When a message whose delivery failed goes out again: after the nack's own delay or the backoff of
 * its attempt, never after the last allowed attempt (it goes to the dead-letter topic instead). A
 * delayed retry is offered to {@link Parking} first (the retry topic, so a long wait holds neither
 * memory nor the queue's committed offset); otherwise it waits here until {@link #pollDue} finds it due.
 * Retries due at the same nanosecond leave in the order they were scheduled.
 *
 * <p>Not thread-safe: used under the owning {@link GroupDispatcher}'s lock.
 */
final class RedeliverySchedule {
    /** Takes a delayed retry over; see {@link DispatchListener#parked}. */
    @FunctionalInterface
    interface Parking {
        boolean park(HeldMessage message, long delayNanos);
    }

    /** Where a failed message that will be delivered again went. */
    enum Plan {
        /** Deliver it again at once. */
        NOW,
        /** Parking took it over: it is finished here. */
        PARKED,
        /** Held here until {@link #pollDue} returns it. */
        LATER
    }

    private record Retry(long dueNanos, long sequence, HeldMessage message) {
    }

    private final DispatchPolicy settings;
    private final LongSupplier nanoClock;
    private final Parking parking;
    private final PriorityQueue<Retry> retries = new PriorityQueue<>(
            (a, b) -> a.dueNanos != b.dueNanos ? Long.compare(a.dueNanos, b.dueNanos) : Long.compare(a.sequence, b.sequence));
    private long sequence;

    RedeliverySchedule(DispatchPolicy settings, LongSupplier nanoClock, Parking parking) {
        this.settings = settings;
        this.nanoClock = nanoClock;
        this.parking = parking;
    }

    /** True when the message used its last allowed attempt and must go to the dead-letter topic. */
    boolean lastAttempt(HeldMessage message) {
        return message.attempts() >= settings.maxDeliveryAttempts();
    }

    /** @param delayMillis the nack's delay; empty: the backoff for the message's attempt number */
    long nackDelayNanos(HeldMessage message, OptionalLong delayMillis) {
        return delayMillis.isPresent()
                ? TimeUnit.MILLISECONDS.toNanos(delayMillis.getAsLong())
                : settings.backoffNanos(message.attempts());
    }

    Plan schedule(HeldMessage message, long delayNanos) {
        if (delayNanos <= 0) {
            return Plan.NOW;
        }
        if (parking.park(message, delayNanos)) {
            return Plan.PARKED;
        }
        retries.add(new Retry(nanoClock.getAsLong() + delayNanos, sequence++, message));
        return Plan.LATER;
    }

    /** The next retry due at {@code nowNanos}, removed; null when none is. */
    HeldMessage pollDue(long nowNanos) {
        if (retries.isEmpty() || retries.peek().dueNanos - nowNanos > 0) {
            return null;
        }
        return retries.poll().message;
    }

    /** Removes the retries {@code which} selects and returns their messages. */
    Set<HeldMessage> drop(Predicate<HeldMessage> which) {
        Set<HeldMessage> dropped = new HashSet<>();
        retries.removeIf(retry -> which.test(retry.message) && dropped.add(retry.message));
        return dropped;
    }

    /** Retries held here, not yet due or not yet polled. */
    int size() {
        return retries.size();
    }
}

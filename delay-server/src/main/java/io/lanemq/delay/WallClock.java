package io.lanemq.delay;

/**
 * Wall-clock time in epoch milliseconds, injected so that tests advance time instead of sleeping.
 *
 * <p>Due times are absolute instants, so this is a wall clock, not a monotonic ticker. The engine
 * re-reads it after every wait and never trusts a wait alone, so a clock that jumps (NTP, a test)
 * is handled. Implementations must be thread-safe.
 *
 * <pre>{@code
 * AtomicLong now = new AtomicLong(1_700_000_000_000L);
 * DelayEngine engine = DelayEngine.builder().clock(now::get)...build();
 * }</pre>
 */
@FunctionalInterface
public interface WallClock {

    /** The current time, epoch milliseconds. */
    long millis();

    /** {@link System#currentTimeMillis()}. */
    static WallClock system() {
        return System::currentTimeMillis;
    }
}

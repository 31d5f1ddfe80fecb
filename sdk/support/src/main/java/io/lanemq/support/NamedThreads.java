package io.lanemq.support;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Daemon threads whose names say whose they are ({@code lanemq-producer-timers-orders}, {@code
 * lanemq-lane-forward-listener-checkout-2}), so a thread dump points at the client or service that started
 * them. Daemon, so a failed start never pins the JVM; whoever starts an executor or thread still stops it.
 *
 * <pre>{@code
 * ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor(
 *         NamedThreads.single(NamedThreads.name("lanemq-producer-timers", producerGroup)));
 * }</pre>
 */
public final class NamedThreads {
    private NamedThreads() {
    }

    /** {@code prefix} followed by each non-empty part, joined with {@code -}. */
    public static String name(String prefix, String... owners) {
        StringBuilder name = new StringBuilder(prefix);
        for (String owner : owners) {
            if (owner != null && !owner.isEmpty()) {
                name.append('-').append(owner);
            }
        }
        return name.toString();
    }

    /** Daemon threads named {@code prefix-1}, {@code prefix-2}, ...: for pools. */
    public static ThreadFactory numbered(String prefix) {
        AtomicInteger sequence = new AtomicInteger();
        return task -> daemon(prefix + "-" + sequence.incrementAndGet(), task);
    }

    /** Daemon threads all named {@code name}: for single-thread executors. */
    public static ThreadFactory single(String name) {
        return task -> daemon(name, task);
    }

    /** A daemon thread named {@code name} running {@code task}, not started. */
    public static Thread daemon(String name, Runnable task) {
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        return thread;
    }

    /** Starts a daemon thread named {@code name} running {@code task}. */
    public static Thread start(String name, Runnable task) {
        Thread thread = daemon(name, task);
        thread.start();
        return thread;
    }
}

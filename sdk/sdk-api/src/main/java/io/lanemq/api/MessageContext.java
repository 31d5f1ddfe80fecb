package io.lanemq.api;

import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * The marks a message carries from the work that sent it: its {@link Lane} and whether it is
 * stress-test traffic. A producer stamps the current thread's context on every message it sends;
 * a listener runs in the context of the message it processes, so what it sends carries the same
 * marks on to the next hop without the application handling them.
 *
 * <p>The context is per thread. Work handed to another thread takes it along with {@link #wrap}.
 *
 * <pre>{@code
 * // in an HTTP filter, from the request's headers:
 * try (MessageContext.Scope scope = MessageContext.current().withLane(Lane.of("A.X")).enter()) {
 *     producer.send(message);              // stamped lane A.X
 *     executor.submit(MessageContext.current().wrap(task));
 * }
 * }</pre>
 *
 * <p>Immutable; the {@code with} methods return new contexts.
 */
public final class MessageContext {
    /** The message property a producer stamps the lane path in; absent on base messages. */
    public static final String LANE_PROPERTY = "LANEMQ_LANE";
    /** The message property that marks stress-test traffic, {@code "true"} when present. */
    public static final String STRESS_TEST_PROPERTY = "LANEMQ_STRESS_TEST";

    private static final MessageContext NONE = new MessageContext(null, false);
    private static final ThreadLocal<MessageContext> CURRENT = ThreadLocal.withInitial(() -> NONE);

    private final Lane lane;
    private final boolean stressTest;

    private MessageContext(Lane lane, boolean stressTest) {
        this.lane = lane;
        this.stressTest = stressTest;
    }

    /** No lane (the base), not stress test: the context of production traffic. */
    public static MessageContext none() {
        return NONE;
    }

    /** The context of the calling thread; {@link #none()} when nothing was entered. */
    public static MessageContext current() {
        return CURRENT.get();
    }

    /** The lane; empty for the base. */
    public Optional<Lane> lane() {
        return Optional.ofNullable(lane);
    }

    /** Whether this is stress-test traffic, which the platform keeps on shadow topics. */
    public boolean stressTest() {
        return stressTest;
    }

    public MessageContext withLane(Lane lane) {
        return new MessageContext(Objects.requireNonNull(lane, "lane (use withoutLane() for the base)"), stressTest);
    }

    /** The same context in the base lane. */
    public MessageContext withoutLane() {
        return new MessageContext(null, stressTest);
    }

    public MessageContext withStressTest(boolean stressTest) {
        return new MessageContext(lane, stressTest);
    }

    /** Makes this the calling thread's context until the scope is closed, which restores the one before. */
    public Scope enter() {
        MessageContext previous = CURRENT.get();
        CURRENT.set(this);
        return new Scope(previous);
    }

    /** The task, run in this context on whichever thread runs it. */
    public Runnable wrap(Runnable task) {
        Objects.requireNonNull(task, "task");
        return () -> {
            try (Scope ignored = enter()) {
                task.run();
            }
        };
    }

    /** The task, called in this context on whichever thread calls it. */
    public <T> Callable<T> wrap(Callable<T> task) {
        Objects.requireNonNull(task, "task");
        return () -> {
            try (Scope ignored = enter()) {
                return task.call();
            }
        };
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof MessageContext context && Objects.equals(context.lane, lane)
                && context.stressTest == stressTest;
    }

    @Override
    public int hashCode() {
        return Objects.hash(lane, stressTest);
    }

    @Override
    public String toString() {
        return "MessageContext[lane=" + (lane == null ? "base" : lane.path()) + ", stressTest=" + stressTest + "]";
    }

    /** An entered context; closing it restores the context the thread had before. Close it on the thread that entered it. */
    public static final class Scope implements AutoCloseable {
        private final MessageContext previous;
        private boolean closed;

        private Scope(MessageContext previous) {
            this.previous = previous;
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                CURRENT.set(previous);
            }
        }
    }
}

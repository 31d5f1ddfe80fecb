package io.lanemq.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.SendFailedException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class UntilStoredTest {

    private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor();
    private final UntilStored untilStored = new UntilStored(executor, 5);
    private final AtomicInteger attempts = new AtomicInteger();
    private final AtomicInteger released = new AtomicInteger();
    private final AtomicInteger notYet = new AtomicInteger();

    @AfterEach
    void stop() {
        executor.shutdownNow();
    }

    /** A broker that answers each send with the next of {@code answers}: "ok", "flush-timeout" or "fail". */
    private UntilStored.Send broker(String... answers) {
        Deque<String> left = new ArrayDeque<>(java.util.List.of(answers));
        return () -> {
            attempts.incrementAndGet();
            String answer = left.isEmpty() ? "flush-timeout" : left.poll();
            return switch (answer) {
                case "ok" -> true;
                case "flush-timeout" -> false; // SendStatuses: stored, not flushed or replicated as configured
                default -> throw new SendFailedException("broker unreachable", null, "cluster-a", null);
            };
        };
    }

    private void send(UntilStored.Send broker) {
        executor.execute(() -> untilStored.send("copy of m-1", broker, released::incrementAndGet, notYet::incrementAndGet));
    }

    @Test
    void aNonOkStatusKeepsTheOriginalHeldAndSendsAgainLikeAFailure() throws Exception {
        send(broker("flush-timeout", "fail", "flush-timeout", "ok"));

        await().atMost(Duration.ofSeconds(10)).until(() -> released.get() == 1);
        executor.shutdown(); // runs what is still scheduled, then ends: a retry after "ok" would show below
        assertThat(executor.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        assertThat(attempts).as("sent until the broker said SEND_OK").hasValue(4);
        assertThat(notYet).as("each attempt short of it counted").hasValue(3);
        assertThat(released).as("the original released once, after SEND_OK only").hasValue(1);
    }

    @Test
    void aBrokerThatNeverFlushesNeverReleasesTheOriginal() {
        send(broker());

        await().atMost(Duration.ofSeconds(10)).until(() -> attempts.get() >= 5);
        assertThat(released).as("not released on a stored-but-not-durable answer").hasValue(0);
    }
}

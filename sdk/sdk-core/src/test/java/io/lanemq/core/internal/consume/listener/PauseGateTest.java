package io.lanemq.core.internal.consume.listener;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.spi.BoundListener;
import io.lanemq.api.spi.BoundMessage;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A message that a fetch under way brings after the pause waits at the gate, unanswered, until resume or close. */
class PauseGateTest {
    private static final Duration WAIT = Duration.ofSeconds(5);

    private final PauseGate gate = new PauseGate();
    private final List<String> seen = new CopyOnWriteArrayList<>();
    private final BoundListener guarded = gate.guard(message -> {
        seen.add(message.messageId());
        return ConsumeResult.SUCCESS;
    });
    private final ExecutorService bindingThread = Executors.newSingleThreadExecutor();

    @AfterEach
    void stop() {
        bindingThread.shutdownNow();
    }

    @Test
    void aMessageArrivingWhilePausedWaitsUnansweredAndReachesTheListenerOnResume() {
        gate.pause();
        CompletableFuture<ConsumeResult> answer = CompletableFuture.supplyAsync(() -> guarded.onMessage(message("m1")), bindingThread);

        await().atMost(WAIT).until(() -> gate.holding() == 1);
        await().during(Duration.ofMillis(200)).atMost(WAIT).until(() -> !answer.isDone());
        assertThat(seen).as("the listener has not seen it").isEmpty();

        gate.resume();
        assertThat(answer.join()).as("acknowledged once processed, not sent back").isEqualTo(ConsumeResult.SUCCESS);
        assertThat(seen).containsExactly("m1");
        assertThat(gate.holding()).isZero();
    }

    @Test
    void closingLetsHeldMessagesThroughToTheListenerEvenWhilePaused() {
        gate.pause();
        CompletableFuture<ConsumeResult> answer = CompletableFuture.supplyAsync(() -> guarded.onMessage(message("m1")), bindingThread);
        await().atMost(WAIT).until(() -> gate.holding() == 1);

        gate.openForClose();

        assertThat(answer.join()).isEqualTo(ConsumeResult.SUCCESS);
        assertThat(seen).containsExactly("m1");
        assertThat(gate.paused()).as("still paused; only the close lets messages through").isTrue();
    }

    @Test
    void aBindingThreadInterruptedWhileHeldAnswersRetryWithoutRunningTheListener() {
        gate.pause();
        CompletableFuture<ConsumeResult> answer = CompletableFuture.supplyAsync(() -> guarded.onMessage(message("m1")), bindingThread);
        await().atMost(WAIT).until(() -> gate.holding() == 1);

        bindingThread.shutdownNow();

        assertThat(answer.join()).isEqualTo(ConsumeResult.RETRY_LATER);
        assertThat(seen).isEmpty();
    }

    @Test
    void anUnpausedGateHandsMessagesStraightOn() {
        assertThat(guarded.onMessage(message("m1"))).isEqualTo(ConsumeResult.SUCCESS);
        assertThat(seen).containsExactly("m1");
    }

    private static BoundMessage message(String id) {
        return new BoundMessage(id, "orders_a", new byte[0], List.of(), Optional.empty(), Map.of(), Optional.empty(), "broker-a",
                0, 0, 1, System.currentTimeMillis());
    }
}

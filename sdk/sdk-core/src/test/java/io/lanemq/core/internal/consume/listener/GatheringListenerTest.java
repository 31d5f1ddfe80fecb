package io.lanemq.core.internal.consume.listener;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lanemq.api.BatchMessageListener;
import io.lanemq.api.BatchResult;
import io.lanemq.api.Batching;
import io.lanemq.api.ConsumeResult;
import io.lanemq.api.MessageContext;
import io.lanemq.api.ReceivedMessage;
import io.lanemq.api.spi.BoundMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Listener threads' messages gathered into batches: sizes, the wait, contexts kept apart, and per-message outcomes. */
class GatheringListenerTest {
    /** Long enough that a full batch never leaves by the wait on a busy machine; the lone-message case pays it once. */
    private static final Duration WAIT = Duration.ofMillis(300);

    private final ExecutorService threads = Executors.newFixedThreadPool(8);
    private final List<List<String>> batches = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        threads.shutdownNow();
    }

    @Test
    void messagesArrivingTogetherLeaveInFullBatchesWithoutWaitingAndEachGetsItsOwnOutcome() throws Exception {
        GatheringListener gathering = new GatheringListener(recording(batch -> BatchResult.success()), Batching.of(4, Duration.ofSeconds(5)));

        List<ConsumeResult> results = deliverTogether(gathering, 8, i -> message("m" + i, Map.of()));

        assertThat(results).containsOnly(ConsumeResult.SUCCESS).hasSize(8);
        assertThat(batches).as("8 messages, 4 per batch; a full batch leaves at once, long before the 5 s wait")
                .hasSize(2).allSatisfy(batch -> assertThat(batch).hasSize(4));
        assertThat(batches.stream().flatMap(List::stream)).containsExactlyInAnyOrder("m0", "m1", "m2", "m3", "m4", "m5",
                "m6", "m7");
    }

    @Test
    void aLoneMessageLeavesAloneOnceTheWaitIsOver() throws Exception {
        GatheringListener gathering = new GatheringListener(recording(batch -> BatchResult.success()), Batching.of(16, WAIT));

        long start = System.nanoTime();
        ConsumeResult result = gathering.consume(message("alone", Map.of()));
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertThat(result).isEqualTo(ConsumeResult.SUCCESS);
        assertThat(batches).containsExactly(List.of("alone"));
        assertThat(tookMillis).as("it waited for company, then went").isGreaterThanOrEqualTo(WAIT.toMillis());
    }

    @Test
    void retryFromAnIndexSettlesTheMessagesBeforeItAndRetriesTheRest() throws Exception {
        GatheringListener gathering = new GatheringListener(recording(batch -> BatchResult.retryFrom(1)), Batching.of(3, WAIT));

        List<ConsumeResult> results = deliverTogether(gathering, 3, i -> message("m" + i, Map.of()));

        assertThat(batches).hasSize(1);
        assertThat(results).as("one success (index 0), two retried (indexes 1 and 2)")
                .containsExactlyInAnyOrder(ConsumeResult.SUCCESS, ConsumeResult.RETRY_LATER, ConsumeResult.RETRY_LATER);
    }

    @Test
    void aThrowingBatchListenerRetriesEveryMessageAndItsExceptionReachesExactlyOneCaller() throws Exception {
        GatheringListener gathering = new GatheringListener(batch -> {
            throw new IllegalStateException("bulk insert failed");
        }, Batching.of(4, WAIT));

        List<Object> outcomes = new ArrayList<>();
        CyclicBarrier together = new CyclicBarrier(4);
        List<Future<Object>> futures = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            ReceivedMessage message = message("m" + i, Map.of());
            futures.add(threads.submit(() -> {
                together.await();
                try {
                    return gathering.consume(message);
                } catch (IllegalStateException e) {
                    return e.getMessage();
                }
            }));
        }
        for (Future<Object> future : futures) {
            outcomes.add(future.get(10, TimeUnit.SECONDS));
        }

        assertThat(outcomes).as("the runner's caller logs the exception once (as for any listener); the rest retry")
                .containsExactlyInAnyOrder("bulk insert failed", ConsumeResult.RETRY_LATER, ConsumeResult.RETRY_LATER,
                        ConsumeResult.RETRY_LATER);
    }

    @Test
    void messagesOfDifferentLanesOrOfStressTrafficNeverShareABatch() throws Exception {
        List<MessageContext> contexts = new CopyOnWriteArrayList<>();
        GatheringListener gathering = new GatheringListener(batch -> {
            contexts.add(MessageContext.current());
            batches.add(batch.stream().map(m -> m.messageId() + "/" + m.context()).toList());
            assertThat(batch).extracting(ReceivedMessage::context).as("one context per batch").containsOnly(batch.get(0).context());
            return BatchResult.success();
        }, Batching.of(2, Duration.ofSeconds(5)));

        List<ConsumeResult> results = deliverTogether(gathering, 6, i -> message("m" + i, switch (i % 3) {
            case 0 -> Map.of();
            case 1 -> Map.of(MessageContext.LANE_PROPERTY, "A.X");
            default -> Map.of(MessageContext.STRESS_TEST_PROPERTY, "true");
        }), true);

        assertThat(results).containsOnly(ConsumeResult.SUCCESS).hasSize(6);
        assertThat(batches).as("two messages of each context: three full batches").hasSize(3);
        assertThat(contexts).as("the batch listener ran inside its batch's context").hasSize(3).doesNotHaveDuplicates();
    }

    @Test
    void batchingRefusesSettingsOutsideItsBoundsNamingThem() {
        assertThatThrownBy(() -> Batching.of(0, WAIT)).hasMessageContaining("Batching.maxMessages");
        assertThatThrownBy(() -> Batching.of(8, Duration.ZERO)).hasMessageContaining("Batching.maxWait");
        assertThatThrownBy(() -> Batching.of(8, Duration.ofMinutes(1))).hasMessageContaining("Batching.maxWait");
        assertThatThrownBy(() -> BatchResult.retryFrom(-1)).hasMessageContaining("retryFrom");
    }

    private BatchMessageListener recording(BatchMessageListener then) {
        return batch -> {
            batches.add(batch.stream().map(ReceivedMessage::messageId).toList());
            return then.consume(batch);
        };
    }

    private List<ConsumeResult> deliverTogether(GatheringListener gathering, int count,
                                                java.util.function.IntFunction<ReceivedMessage> messages) throws Exception {
        return deliverTogether(gathering, count, messages, false);
    }

    /** Each message on its own thread, all released at once, as a consumer's listener threads are; in its context when asked. */
    private List<ConsumeResult> deliverTogether(GatheringListener gathering, int count,
                                                java.util.function.IntFunction<ReceivedMessage> messages,
                                                boolean inContext) throws Exception {
        CyclicBarrier together = new CyclicBarrier(count);
        List<Future<ConsumeResult>> futures = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ReceivedMessage message = messages.apply(i);
            futures.add(threads.submit(() -> {
                together.await();
                if (!inContext) {
                    return gathering.consume(message);
                }
                try (MessageContext.Scope ignored = message.context().enter()) {
                    return gathering.consume(message);
                }
            }));
        }
        List<ConsumeResult> results = new ArrayList<>();
        for (Future<ConsumeResult> future : futures) {
            results.add(future.get(10, TimeUnit.SECONDS));
        }
        return results;
    }

    private static ReceivedMessage message(String id, Map<String, String> properties) {
        return new DeliveredMessage("orders", "cluster-a", new BoundMessage(id, "orders_a", new byte[0], List.of(),
                Optional.empty(), properties, Optional.empty(), "broker-a", 0, 0, 1, 0));
    }
}

package io.lanemq.core.internal.produce;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.api.SendFailedException;
import io.lanemq.api.spi.BoundSendResult;
import io.lanemq.api.spi.PhysicalMessage;
import io.lanemq.config.BatchConfig;
import io.lanemq.core.metrics.SdkMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Which answer of a gathered request speaks for it to the failover: the one a caller's failover feeds back as its
 * cluster's success or failure, once per request. Requests are answered by hand here, one step at a time.
 */
class SendGatheringAnswersTest {
    private static final BatchConfig GATHER = new BatchConfig(64, 1 << 20, 1, Duration.ZERO);

    private final HandAnsweredProducer producer = new HandAnsweredProducer();
    private final SendGathering gathering = new SendGathering(producer, "cluster-a",
            new SdkMetrics(new SimpleMeterRegistry(), "test"));

    @Test
    void aRequestSpeaksThroughItsFirstMessageOnlyWhetherItSucceedsOrFails() {
        CompletableFuture<BoundSendResult> alone = gathering.send(message("m0"), GATHER);
        List<CompletableFuture<BoundSendResult>> batch = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            batch.add(gathering.send(message("m" + i), GATHER)); // gathered while m0's request is out
        }
        producer.singles.get(0).complete(result(0));
        assertThat(SendGathering.speaksForRequest(alone)).as("a message sent alone").isTrue();

        producer.batches.get(0).complete(List.of(result(1), result(2), result(3)));
        assertThat(batch).extracting(SendGathering::speaksForRequest).as("the batch's three answers")
                .containsExactly(true, false, false);

        List<CompletableFuture<BoundSendResult>> failing = new ArrayList<>();
        CompletableFuture<BoundSendResult> head = gathering.send(message("f0"), GATHER);
        for (int i = 1; i <= 2; i++) {
            failing.add(gathering.send(message("f" + i), GATHER));
        }
        producer.singles.get(1).completeExceptionally(new SendFailedException("lost", "orders", "cluster-a", null));
        producer.batches.get(1).completeExceptionally(new SendFailedException("lost", "orders", "cluster-a", null));
        assertThat(head.isCompletedExceptionally() && failing.stream().allMatch(CompletableFuture::isCompletedExceptionally))
                .as("every message failed").isTrue();
        assertThat(failing).extracting(SendGathering::speaksForRequest).as("the failed batch's two answers")
                .containsExactly(true, false);
    }

    private static PhysicalMessage message(String body) {
        return new PhysicalMessage("orders", body.getBytes(StandardCharsets.UTF_8), List.of(), Optional.empty(), Map.of(),
                Optional.empty());
    }

    private static BoundSendResult result(int i) {
        return new BoundSendResult("id-" + i, "orders", "broker-a", 0, i);
    }
}

package io.lanemq.core.internal.produce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.spi.BoundSendResult;
import io.lanemq.api.spi.PhysicalMessage;
import io.lanemq.config.BatchConfig;
import io.lanemq.core.metrics.SdkMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The adaptive linger: a send waits for company only while waiting has gathered some; time is a fake ticker's. */
class SendGatheringLingerTest {
    private static final BatchConfig LINGERING = new BatchConfig(64, 1 << 20, 1, Duration.ofMillis(200));

    private final AtomicLong now = new AtomicLong();
    private final HandAnsweredProducer producer = new HandAnsweredProducer();
    private final SendGathering gathering = new SendGathering(producer, "cluster-a",
            new SdkMetrics(new SimpleMeterRegistry(), "test"), now::get);

    @Test
    void aLoneSenderIsNotHeldByTheLinger() {
        for (int i = 0; i < 5; i++) {
            CompletableFuture<BoundSendResult> sent = gathering.send(message("m" + i), LINGERING);
            assertThat(producer.singles).as("send %d left at once: nothing could join it", i).hasSize(i + 1);
            producer.singles.get(i).complete(result(i));
            assertThat(sent).isCompleted();
        }
    }

    @Test
    void sendsWaitForCompanyOnceALingerGatheredSome() {
        gathering.send(message("first"), LINGERING);
        producer.singles.get(0).complete(result(0));
        now.addAndGet(AdaptiveLinger.RETRY_NANOS); // a second later the linger is tried

        gathering.send(message("a"), LINGERING);
        gathering.send(message("b"), LINGERING);
        gathering.send(message("c"), LINGERING);
        assertThat(producer.singles).as("held by the linger").hasSize(1);
        await().atMost(Duration.ofSeconds(5)).until(() -> producer.batches.size() == 1);
        assertThat(producer.batchMessages.get(0)).as("the three left together").hasSize(3);
        producer.batches.get(0).complete(List.of(result(1), result(2), result(3)));

        gathering.send(message("d"), LINGERING);
        assertThat(producer.singles).as("the linger gathered two others: the next send waits too").hasSize(1);
        await().atMost(Duration.ofSeconds(5)).until(() -> producer.singles.size() == 2);
        assertThat(producer.batches).as("d left alone once its linger ended").hasSize(1);
    }

    private static PhysicalMessage message(String body) {
        return new PhysicalMessage("orders", body.getBytes(StandardCharsets.UTF_8), List.of(), Optional.empty(), Map.of(),
                Optional.empty());
    }

    private static BoundSendResult result(int i) {
        return new BoundSendResult("id-" + i, "orders", "broker-a", 0, i);
    }
}

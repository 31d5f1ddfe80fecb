package io.lanemq.configtool;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.api.Deduplication;
import io.lanemq.api.Message;
import io.lanemq.api.MessageContext;
import io.lanemq.api.spi.BoundMessage;
import io.lanemq.rocketmq.DeadLetter;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ReplayedMessageTest {
    @Test
    void aReplayKeepsKeysTagShardingKeyLaneAndStressMarkAndCarriesTheOriginalId() {
        DeadLetter letter = letter("id-1", Map.of(MessageContext.LANE_PROPERTY, "A.X", MessageContext.STRESS_TEST_PROPERTY, "true",
                "traceparent", "00-abc-def-01"));

        Message replay = ReplayedMessage.of("order-paid", letter);

        assertThat(replay.logicTopic()).isEqualTo("order-paid");
        assertThat(new String(replay.body(), StandardCharsets.UTF_8)).isEqualTo("body");
        assertThat(replay.keys()).containsExactly("order-42", "customer-7");
        assertThat(replay.tag()).contains("paid");
        assertThat(replay.shardingKey()).contains("order-42");
        assertThat(replay.properties()).containsEntry(MessageContext.LANE_PROPERTY, "A.X")
                .containsEntry(MessageContext.STRESS_TEST_PROPERTY, "true").containsEntry("traceparent", "00-abc-def-01")
                .containsEntry(Deduplication.ORIGINAL_MESSAGE_ID_PROPERTY, "id-1");
    }

    @Test
    void aReplayOfAReplayKeepsTheFirstOriginalId() {
        DeadLetter again = letter("replay-2", Map.of(Deduplication.ORIGINAL_MESSAGE_ID_PROPERTY, "id-1"));

        assertThat(ReplayedMessage.of("order-paid", again).properties()).containsEntry(Deduplication.ORIGINAL_MESSAGE_ID_PROPERTY,
                "id-1");
        assertThat(ReplayedMessage.originalId(again)).isEqualTo("id-1");
    }

    private static DeadLetter letter(String id, Map<String, String> properties) {
        BoundMessage message = new BoundMessage(id, "%DLQ%billing", "body".getBytes(StandardCharsets.UTF_8),
                List.of("order-42", "customer-7"), Optional.of("paid"), properties, Optional.of("order-42"), "broker-a", 0, 3L, 2,
                1_000L);
        return new DeadLetter("cluster-a", "order_paid", message, Instant.ofEpochMilli(2_000), 1);
    }
}

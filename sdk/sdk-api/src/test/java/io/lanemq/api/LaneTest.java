package io.lanemq.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LaneTest {

    @Test
    void fallsBackFromTheMostSpecificLaneToTheTopLevelOne() {
        Lane lane = Lane.of("A.X.1");

        assertThat(lane.fallbackPath()).extracting(Lane::path).containsExactly("A.X.1", "A.X", "A");
        assertThat(lane.parent()).contains(Lane.of("A.X"));
        assertThat(Lane.of("A").parent()).isEmpty();
        assertThat(Lane.of("A.X")).isEqualTo(Lane.of("A.X")).hasSameHashCodeAs(Lane.of("A.X"));
    }

    @Test
    void rejectsPathsThatAreNotLanesNamingTheProblem() {
        assertThatThrownBy(() -> Lane.of("")).hasMessageContaining("base lane");
        assertThatThrownBy(() -> Lane.of(null)).hasMessageContaining("lane null");
        assertThatThrownBy(() -> Lane.of("A..X")).hasMessageContaining("'A..X'").hasMessageContaining("segments");
        assertThatThrownBy(() -> Lane.of("A.X.")).hasMessageContaining("segments");
        assertThatThrownBy(() -> Lane.of("A X")).hasMessageContaining("segments");
        assertThatThrownBy(() -> Lane.of("A.B.C.D.E")).hasMessageContaining("deeper than 4");
        assertThatThrownBy(() -> Lane.of("A".repeat(65))).hasMessageContaining("longer than 64");
        assertThat(Lane.parse("A..X")).isEmpty();
        assertThat(Lane.parse("A.X")).contains(Lane.of("A.X"));
    }

    @Test
    void aMessageChecksTheMarksItIsGivenExplicitly() {
        Message.Builder builder = Message.builder("order-paid").body(new byte[] {1});

        assertThatThrownBy(() -> builder.property(MessageContext.LANE_PROPERTY, "A..X")).hasMessageContaining("'A..X'");
        assertThatThrownBy(() -> builder.property(MessageContext.STRESS_TEST_PROPERTY, "yes"))
                .hasMessageContaining(MessageContext.STRESS_TEST_PROPERTY);
        assertThat(builder.property(MessageContext.LANE_PROPERTY, "A.X").build().properties())
                .containsEntry(MessageContext.LANE_PROPERTY, "A.X");
    }

    @Test
    void laneOptionsNeedTlsAndATokenAndAReachableAddress() {
        Path pem = Path.of("cert.pem");
        String token = "0123456789abcdef";

        assertThatThrownBy(() -> LaneOptions.builder().token(token).build()).hasMessageContaining("tls(");
        assertThatThrownBy(() -> LaneOptions.builder().tls(pem, pem, pem).build()).hasMessageContaining("token");
        assertThatThrownBy(() -> LaneOptions.builder().token("short")).hasMessageContaining("16 characters")
                .hasMessageNotContaining("short");
        assertThatThrownBy(() -> LaneOptions.builder().tls(pem, pem, pem).token(token).listen("0.0.0.0", 7070).build())
                .hasMessageContaining("advertisedHost");
        assertThatThrownBy(() -> LaneOptions.builder().listen("127.0.0.1", 70000)).hasMessageContaining("0-65535");
        assertThatThrownBy(() -> LaneOptions.builder().lane("A..X")).hasMessageContaining("'A..X'");

        LaneOptions options = LaneOptions.builder().lane("A.X").tls(pem, pem, pem).token(token).build();
        assertThat(options.lane()).contains(Lane.of("A.X"));
        assertThat(options.advertisedHost()).isEqualTo("127.0.0.1");
        assertThat(options.toString()).doesNotContain(token);
        assertThat(LaneOptions.builder().lane("").tls(pem, pem, pem).token(token).build().lane()).isEmpty();
        assertThat(ClientOptions.builder("app").configLocation("file:/x").lanes(options).build().toString())
                .contains("lane=A.X").doesNotContain(token);
    }

    @Test
    void aReceivedMessageCarriesTheContextItWasSentIn() {
        assertThat(received(Map.of(MessageContext.LANE_PROPERTY, "A.X", MessageContext.STRESS_TEST_PROPERTY, "true"))
                .context()).isEqualTo(MessageContext.none().withLane(Lane.of("A.X")).withStressTest(true));
        assertThat(received(Map.of()).context()).isEqualTo(MessageContext.none());
        // A stamp that is no lane path (another producer's) is read as the base rather than failing the delivery.
        assertThat(received(Map.of(MessageContext.LANE_PROPERTY, "A..X")).lane()).isEmpty();
    }

    private static ReceivedMessage received(Map<String, String> properties) {
        return new Received(properties);
    }

    /** Only properties: lane(), stressTest() and context() are the interface's own, read from them. */
    private record Received(Map<String, String> properties) implements ReceivedMessage {
        @Override public String messageId() { return "id"; }
        @Override public String logicTopic() { return "t"; }
        @Override public byte[] body() { return new byte[] {1}; }
        @Override public List<String> keys() { return List.of(); }
        @Override public Optional<String> tag() { return Optional.empty(); }
        @Override public Optional<String> shardingKey() { return Optional.empty(); }
        @Override public String cluster() { return "c"; }
        @Override public String physicalTopic() { return "p"; }
        @Override public int queueId() { return 0; }
        @Override public long queueOffset() { return 0; }
        @Override public int deliveryAttempt() { return 1; }
        @Override public long bornTimestamp() { return 0; }
    }
}

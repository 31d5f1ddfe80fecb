package io.lanemq.core.internal.produce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lanemq.api.InvalidMessageException;
import io.lanemq.api.Message;
import io.lanemq.api.MessageContext;
import io.lanemq.config.ClusterConfig;
import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.TopicRoute;
import java.nio.charset.StandardCharsets;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which sends are stress-test traffic, and which logic topics let them through, before anything is sent. */
class StressSendRoutingTest {
    private final ContextStamp stamp = new ContextStamp(Optional.empty());

    @Test
    void aSendIsStressTrafficWhenItsContextOrItsOwnPropertySaysSo() {
        Message plain = message("order-paid");
        Message marked = Message.builder("order-paid").body(new byte[] {1})
                .property(MessageContext.STRESS_TEST_PROPERTY, "true").build();

        assertThat(ContextStamp.marksStressTest(stamp.properties(plain))).isFalse();
        assertThat(ContextStamp.marksStressTest(stamp.properties(marked))).as("re-sent by the delay server, in no context").isTrue();
        try (MessageContext.Scope ignored = MessageContext.none().withStressTest(true).enter()) {
            assertThat(ContextStamp.marksStressTest(stamp.properties(plain))).isTrue();
        }
        assertThat(ContextStamp.marksStressTest(stamp.properties(plain))).as("after the scope closed").isFalse();
    }

    @Test
    void aStressSendIsRefusedByALogicTopicThatTakesNoStressTrafficNamingTheTopicAndTheSetting() {
        PlatformConfig config = config();

        assertThatThrownBy(() -> SendValidator.check(config, message("refund"), true, InstantSource.system()))
                .isInstanceOf(InvalidMessageException.class)
                .hasMessageContaining("logic topic 'refund' does not take stress-test traffic (topics.refund.stressTest is false)")
                .hasMessageContaining("must never reach a production topic; nothing was sent");
    }

    @Test
    void productionSendsGoEverywhereAndStressSendsWhereTheTopicTakesThem() throws Exception {
        PlatformConfig config = config();

        assertThat(SendValidator.check(config, message("refund"), false, InstantSource.system()).name()).isEqualTo("refund");
        assertThat(SendValidator.check(config, message("order-paid"), false, InstantSource.system()).name()).isEqualTo("order-paid");
        LogicTopicConfig stressed = SendValidator.check(config, message("order-paid"), true, InstantSource.system());
        assertThat(stressed.routes()).extracting(config::shadowTopic).containsExactly("order_paid_SHADOW", "order_paid_b_SHADOW");
    }

    private static PlatformConfig config() {
        try {
            return PlatformConfig.builder()
                    .cluster(new ClusterConfig("cluster-a", "idc-a", "127.0.0.1:9876", Map.of()))
                    .cluster(new ClusterConfig("cluster-b", "idc-b", "127.0.0.1:9877", Map.of()))
                    .topic(new LogicTopicConfig("order-paid", List.of(new TopicRoute("cluster-a", "order_paid", 50),
                            new TopicRoute("cluster-b", "order_paid_b", 50)), Map.of()).withStressTest(true))
                    .topic(new LogicTopicConfig("refund", List.of(new TopicRoute("cluster-a", "refund", 1)), Map.of()))
                    .build();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static Message message(String logicTopic) {
        return Message.builder(logicTopic).body("x".getBytes(StandardCharsets.UTF_8)).build();
    }
}

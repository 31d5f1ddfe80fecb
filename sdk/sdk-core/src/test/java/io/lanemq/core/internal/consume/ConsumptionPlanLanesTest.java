package io.lanemq.core.internal.consume;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.Lane;
import io.lanemq.api.Subscription;
import io.lanemq.config.ClusterConfig;
import io.lanemq.config.ConsumerConfig;
import io.lanemq.config.ConsumerProxyConfig;
import io.lanemq.config.ConsumptionMode;
import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.StartPosition;
import io.lanemq.config.TopicRoute;
import io.lanemq.core.internal.consume.proxy.ProxyIdentity;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a lane member's subscription runs in each mode: a member tag in DIRECT mode, its lane in the proxy's Subscribe in PROXY mode. */
class ConsumptionPlanLanesTest {
    private static final Subscription BILLING = Subscription.builder("orders", "billing").build();
    private static final ProxyIdentity IDENTITY = new ProxyIdentity("app", Optional.of("token"));
    private static final LaneMembership LANE_A = new LaneMembership("tag-of-A", Optional.of(Lane.of("A.X")),
            message -> ConsumeResult.SUCCESS);

    @TempDir
    Path dir;

    @Test
    void aLaneMemberInAProxyModeGroupTellsTheProxyItsLaneInsteadOfBeingRefused() throws Exception {
        ConsumptionPlan plan = ConsumptionPlan.of(BILLING, config(ConsumptionMode.PROXY), IDENTITY, Optional.of(LANE_A));

        assertThat(plan.mode()).isEqualTo(ConsumptionMode.PROXY);
        assertThat(plan.proxy().lane()).isEqualTo("A.X");
    }

    @Test
    void aClientWithoutLanesSubscribesToTheProxyAsTheBase() throws Exception {
        ConsumptionPlan plan = ConsumptionPlan.of(BILLING, config(ConsumptionMode.PROXY), IDENTITY, Optional.empty());

        assertThat(plan.proxy().lane()).isEmpty();
    }

    @Test
    void theSameMemberInADirectGroupJoinsWithItsMemberTag() throws Exception {
        ConsumptionPlan plan = ConsumptionPlan.of(BILLING, config(ConsumptionMode.DIRECT), IDENTITY, Optional.of(LANE_A));

        assertThat(plan.mode()).isEqualTo(ConsumptionMode.DIRECT);
        assertThat(plan.direct().values()).allSatisfy(spec -> assertThat(spec.memberTag()).contains("tag-of-A"));
    }

    private PlatformConfig config(ConsumptionMode mode) throws Exception {
        Path ca = Files.writeString(dir.resolve("ca.pem"), "not read by the plan");
        ConsumerConfig settings = new ConsumerConfig(2, 3, StartPosition.EARLIEST, ConsumerConfig.DEFAULT_BATCH_SIZE, mode);
        return PlatformConfig.builder()
                .cluster(new ClusterConfig("cluster-a", "idc-a", "10.0.0.1:9876", Map.of()))
                .proxy(new ConsumerProxyConfig(List.of("127.0.0.1:7443"), ca))
                .topic(new LogicTopicConfig("orders", List.of(new TopicRoute("cluster-a", "orders_a", 100)), Map.of("billing", settings)))
                .build();
    }
}

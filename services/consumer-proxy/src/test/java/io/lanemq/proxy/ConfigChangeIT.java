package io.lanemq.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.grpc.Status;
import io.lanemq.localstack.LocalPlatform;
import io.lanemq.proxy.protocol.Delivery;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/** A running group follows a platform configuration change: its streams are ended, and reconnecting consumers get the new routes. */
@Execution(ExecutionMode.CONCURRENT) // waits on its own topic and group: see junit-platform.properties
class ConfigChangeIT {

    @Test
    void aMovedLogicTopicRestartsItsGroupOnTheNewPhysicalTopic() throws Exception {
        String group = LocalPlatform.unique("proxy-move");
        LocalPlatform platform = ProxyHarness.platform().addTopic("proxy-move", 2, 50, 50, group);
        try (ConsumerProxyServer proxy = ConsumerProxyServer.start(ProxyHarness.config(platform, b -> b))) {
            TestConsumer before = ProxyHarness.consumer(proxy, "before", d -> true)
                    .subscribe(ProxyHarness.APPLICATION, group, "proxy-move", 32);
            List<String> old = ProxyHarness.send(platform, "proxy-move", 20, i -> null);
            await().atMost(Duration.ofSeconds(60)).until(() -> before.acked.size() == 20);
            String oldTopic = platform.physicalTopic("proxy-move");

            platform.moveTopic("proxy-move", 2).writeConfig();
            await().atMost(Duration.ofSeconds(30)).until(() -> before.ended.get() != null);
            assertThat(before.ended.get().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
            assertThat(before.ended.get().getDescription()).contains("configuration of " + group + "@proxy-move changed");
            before.close();

            try (TestConsumer after = ProxyHarness.consumer(proxy, "after", d -> true)
                    .subscribe(ProxyHarness.APPLICATION, group, "proxy-move", 32)) {
                List<String> moved = ProxyHarness.send(platform, "proxy-move", 20, i -> null);
                await().atMost(Duration.ofSeconds(60)).until(() -> after.acked.size() >= 20);
                assertThat(after.acked).extracting(Delivery::getMessageId).containsExactlyInAnyOrderElementsOf(moved);
                assertThat(after.acked).extracting(Delivery::getPhysicalTopic).doesNotContain(oldTopic)
                        .containsOnly(platform.physicalTopic("proxy-move"));
                assertThat(old).doesNotContainAnyElementsOf(moved);
            }
        } finally {
            platform.close();
        }
    }
}

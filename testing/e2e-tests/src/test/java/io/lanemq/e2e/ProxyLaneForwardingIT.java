package io.lanemq.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.Lane;
import io.lanemq.config.ConsumptionMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@link LaneForwardingIT}'s tests with the lane group in PROXY mode: the consumer proxy routes the lanes. And
 * kill -9 of a lane's only consumer, which only PROXY mode has to answer this way: the proxy sees its stream
 * break and hands the lane's messages to the base, with nothing acknowledged lost.
 */
class ProxyLaneForwardingIT extends LaneForwardingIT {
    private static final int PER_PHASE = 10;

    @Override
    ConsumptionMode mode() {
        return ConsumptionMode.PROXY;
    }

    @Test
    void killMinus9OfALanesOnlyConsumerHandsItsMessagesToTheBaseAndLosesNothing() throws Exception {
        Path workDir = Files.createTempDirectory("proxy-lane-kill");
        Map<String, String> sent = new LinkedHashMap<>();
        try (LaneMemberProcess member = LaneMemberProcess.launch(workDir, platform.writeConfig(), TOPIC, group, "K", TOKEN,
                Duration.ofMillis(300), Optional.of(ProxyFixture.TOKEN))) {
            member.awaitReady(DEADLINE);
            await().atMost(DEADLINE).until(() -> proxy.consumers() == deployments.size() + 1);

            for (int i = 0; i < PER_PHASE; i++) {
                send("K", "k-before-" + i, sent, "K");
            }
            await().atMost(DEADLINE).until(() -> member.consumed().size() >= PER_PHASE / 2);
            long killedAt = System.nanoTime(); // until now the member was alive and connected: the base had to wait
            assertThat(member.kill()).as("the lane member is gone").isTrue();
            for (int i = 0; i < PER_PHASE; i++) {
                send("K", "k-after-" + i, sent, "K");
            }

            Deployment base = deployments.get("");
            await().atMost(DEADLINE).until(() -> {
                Set<String> consumed = new HashSet<>(keys(member.consumed()));
                base.consumed().forEach(c -> consumed.add(c.key()));
                return consumed.containsAll(sent.keySet());
            });
            List<Consumed> laneKAtTheBase = base.consumed().stream().filter(c -> c.key().startsWith("k-")).toList();
            System.out.printf("ProxyLaneForwardingIT: lane K's member consumed %d before its kill, the base %d after%n",
                    member.consumed().size(), laneKAtTheBase.size());
            assertThat(laneKAtTheBase).as("the base takes lane K's messages only once K's consumer is gone")
                    .isNotEmpty().allSatisfy(c -> assertThat(c.nanos()).isGreaterThan(killedAt))
                    .allSatisfy(c -> assertThat(c.context().lane()).as("in the context of its own lane").contains(Lane.of("K")));
            assertThat(keys(member.consumed())).as("what the member consumed was lane K's").allMatch(key -> key.startsWith("k-"));
            for (String lane : List.of("A", "A.X")) {
                assertThat(deployments.get(lane).consumed()).as("lane %s, not on K's path, takes none of it", lane).isEmpty();
            }
        }
    }

    private static Set<String> keys(List<LaneMemberProcess.Consumed> consumed) {
        return consumed.stream().map(LaneMemberProcess.Consumed::key).collect(Collectors.toSet());
    }
}

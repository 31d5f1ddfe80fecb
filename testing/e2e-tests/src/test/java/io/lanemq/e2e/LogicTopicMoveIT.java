package io.lanemq.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.Consumer;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.api.Subscription;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.localstack.LocalPlatform;
import io.lanemq.localstack.SendStream;
import io.lanemq.testkit.RocketMqStack;
import io.micrometer.core.instrument.Gauge;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * A logic topic moved to another physical topic, with its consumer thread count changed, in the watched file while a
 * steady stream runs: the running consumers move in place, drain the old topic, and consume every acknowledged message
 * of both, with no failed send. It judges what is consumed and its own group's gauges, with deadlines only, on its own
 * topics: it may run beside another concurrent class (where a send that fails over still succeeds).
 */
@Execution(ExecutionMode.CONCURRENT)
class LogicTopicMoveIT {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    @RegisterExtension
    static final GlobalMeters METRICS = new GlobalMeters();

    @Test
    void consumersFollowALogicTopicMovedToAnotherPhysicalTopicAndThreadCountChangesLive() throws Exception {
        String group = LocalPlatform.unique("reload-move");
        LocalPlatform platform = LocalPlatform.on(RocketMqStack.shared()).consumerThreads(4).addTopic("settlement", 4, 50, 50, group);
        Received received = new Received();
        try (MessagingClient client = platform.client("reload-move-it");
             Producer producer = client.createProducer(ProducerOptions.defaults());
             Consumer consumer = client.subscribe(Subscription.builder("settlement", group).build(), received);
             SendStream stream = new SendStream(producer, "settlement", 500)) {
            String oldPhysical = platform.physicalTopic("settlement");
            assertThat(directThreadsByTopic(group)).as("one consumer per cluster, on the topic, with half the configured total each")
                    .containsExactly(Map.entry(oldPhysical, List.of(2.0, 2.0)));
            await().atMost(Duration.ofSeconds(20)).until(() -> stream.nowNanos() > 3 * SECOND);

            platform.moveTopic("settlement", 4).consumerThreads(12).writeConfig();
            String newPhysical = platform.physicalTopic("settlement");
            await().atMost(Duration.ofSeconds(10)).until(() -> directThreadsByTopic(group)
                    .equals(Map.of(newPhysical, List.of(6.0, 6.0))));
            long movedAt = stream.nowNanos();
            await().atMost(Duration.ofSeconds(30)).until(() -> received.all.stream()
                    .anyMatch(m -> m.physicalTopic().equals(newPhysical)));

            await().atMost(Duration.ofSeconds(20)).until(() -> stream.nowNanos() > movedAt + 3 * SECOND);
            stream.close();
            await().atMost(Duration.ofSeconds(30)).until(stream::settled);
            assertThat(SendStream.successRate(stream.all())).isEqualTo(1.0);
            Set<String> acknowledged = stream.acknowledgedIds();
            await().atMost(Duration.ofSeconds(60)).until(() -> received.deliveriesById.keySet().containsAll(acknowledged));
            Map<String, Long> byTopic = received.all.stream().collect(Collectors.groupingBy(m -> m.physicalTopic(), Collectors.counting()));
            assertThat(byTopic).containsKeys(oldPhysical, newPhysical);
            await().atMost(Duration.ofSeconds(30)).until(() -> METRICS.gauge(SdkMetrics.DIRECT_DRAINING, group) == 0);
            // The brokers' count, through the lag gauge: all consumed and committed, on the new topic and the drained one.
            // Asserted until it holds: a consumer that just finished draining is replaced, and its gauge with it.
            for (String cluster : List.of(platform.idcA().clusterName(), platform.idcB().clusterName())) {
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(
                        METRICS.gauge(SdkMetrics.CONSUMER_LAG, group, SdkMetrics.TAG_CLUSTER, cluster)).as("lag on " + cluster).isZero());
            }
        }
    }

    /** The listener threads of each running DIRECT consumer of {@code group}, by the physical topic it consumes. */
    private static Map<String, List<Double>> directThreadsByTopic(String group) {
        return METRICS.find(SdkMetrics.DIRECT_THREADS).tag(SdkMetrics.TAG_GROUP, group).gauges().stream()
                .collect(Collectors.groupingBy(g -> g.getId().getTag(SdkMetrics.TAG_PHYSICAL_TOPIC),
                        Collectors.mapping(Gauge::value, Collectors.toList())));
    }
}

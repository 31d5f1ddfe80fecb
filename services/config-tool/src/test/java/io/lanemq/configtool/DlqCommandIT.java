package io.lanemq.configtool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.ClientOptions;
import io.lanemq.api.ConsumeResult;
import io.lanemq.api.Consumer;
import io.lanemq.api.Deduplication;
import io.lanemq.api.Message;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.api.ReceivedMessage;
import io.lanemq.api.Subscription;
import io.lanemq.config.ConsumerConfig;
import io.lanemq.config.StartPosition;
import io.lanemq.core.client.CoreMessagingClient;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.localstack.LocalPlatform;
import io.lanemq.testkit.RocketMqStack;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** {@code lanemq-config dlq} against real brokers on both clusters, with the SDK's own consumer failing and then fixed. */
class DlqCommandIT {
    private static final String TOPIC = "dlq-tool";
    private static final int MESSAGES = 50;
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final Pattern CLUSTER_COUNT = Pattern.compile("^(\\S+) %DLQ%\\S+: (\\d+) dead letters", Pattern.MULTILINE);

    @Test
    void fiftyMessagesFailedUntilFixedAreReplayedOnceFromBothClustersAndAgainDeliverNone() throws Exception {
        String group = LocalPlatform.unique("dlq-tool");
        // One delivery allowed: a failure goes to the dead-letter topic at once, without RocketMQ's 10 s+ retry ladder.
        LocalPlatform platform = LocalPlatform.on(RocketMqStack.shared()).addTopic(TOPIC, 2, 50, 50, group)
                .consumerSettings(TOPIC, group, settings -> new ConsumerConfig(2, 1, StartPosition.EARLIEST, settings.batchSize(),
                        settings.mode(), 0, 0, Duration.ofMinutes(10), Deduplication.Identity.MESSAGE_ID));
        String config = "file:" + platform.writeConfig();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        AtomicBoolean fixed = new AtomicBoolean();
        Set<String> failed = ConcurrentHashMap.newKeySet();
        Queue<ReceivedMessage> processed = new ConcurrentLinkedQueue<>();
        try (MessagingClient client = CoreMessagingClient.start(ClientOptions.builder("dlq-tool-it").configLocation(config)
                .noConfigSnapshots().build(), registry);
             Producer producer = client.createProducer(ProducerOptions.defaults());
             Consumer ignored = client.subscribe(Subscription.builder(TOPIC, group).build(), message -> {
                 if (!fixed.get()) {
                     failed.add(message.messageId());
                     throw new IllegalStateException("the listener's bug, not fixed yet");
                 }
                 processed.add(message);
                 return ConsumeResult.SUCCESS;
             })) {
            Map<String, Integer> sent = new HashMap<>();
            for (int i = 0; i < MESSAGES; i++) {
                sent.put(producer.send(Message.builder(TOPIC).keys("order-" + i).property("source", "dlq-it")
                        .body(("m" + i).getBytes(StandardCharsets.UTF_8)).build()).messageId(), i);
            }
            await().atMost(DEADLINE).until(() -> failed.containsAll(sent.keySet()));

            ToolRun list = awaitListed(group, config, MESSAGES);
            System.out.println("dlq list once all 50 failed:\n" + list.out());
            Map<String, Integer> perCluster = counts(list.out());
            assertThat(perCluster).as(list.out()).containsOnlyKeys(platform.idcA().clusterName(), platform.idcB().clusterName());
            assertThat(perCluster.values()).as("both clusters' DLQs hold some of the 50: " + perCluster).allMatch(count -> count > 0);
            assertThat(list.out()).contains("oldest dead-lettered ");

            ToolRun show = ToolRun.of("dlq", "show", TOPIC, group, "--config", config, "--limit", "3");
            assertThat(show.exitCode()).as(show.err()).isZero();
            assertThat(show.out()).contains("keys order-", "property source=dlq-it", "body, 2 bytes:", "deliveries 1")
                    .containsPattern("(?s)(--- .*){3}").doesNotContainPattern("(?s)(--- .*){4}");

            ToolRun dryRun = ToolRun.of("dlq", "replay", TOPIC, group, "--config", config, "--all", "--dry-run");
            assertThat(dryRun.exitCode()).as(dryRun.err()).isZero();
            assertThat(dryRun.out()).contains("total " + MESSAGES + " would be replayed");

            fixed.set(true);
            assertThat(processed).as("nothing was sent by the dry run").isEmpty();
            Instant start = Instant.now();
            ToolRun replay = ToolRun.of("dlq", "replay", TOPIC, group, "--config", config, "--all", "--rate", "100");
            Duration took = Duration.between(start, Instant.now());
            assertThat(replay.exitCode()).as(replay.err()).isZero();
            assertThat(replay.out()).contains("total " + MESSAGES + " replayed");
            System.out.println("dlq replay --all --rate 100 took " + took.toMillis() + " ms:\n" + replay.out());
            assertThat(took).as("50 sends paced at 100/s take at least 49 intervals of 10 ms").isGreaterThanOrEqualTo(Duration.ofMillis(490));

            await().atMost(DEADLINE).until(() -> originalIds(processed).containsAll(sent.keySet()));
            for (ReceivedMessage message : processed) {
                int index = sent.get(message.properties().get(Deduplication.ORIGINAL_MESSAGE_ID_PROPERTY));
                assertThat(message.keys()).as("keys kept").containsExactly("order-" + index);
                assertThat(message.properties()).as("properties kept").containsEntry("source", "dlq-it");
                assertThat(new String(message.body(), StandardCharsets.UTF_8)).isEqualTo("m" + index);
            }
            double droppedBefore = dropped(registry, group);

            ToolRun again = ToolRun.of("dlq", "replay", TOPIC, group, "--config", config, "--all", "--rate", "200");
            assertThat(again.exitCode()).as(again.err()).isZero();
            assertThat(again.out()).contains("total " + MESSAGES + " replayed");
            await().atMost(DEADLINE).until(() -> dropped(registry, group) - droppedBefore >= MESSAGES);
            System.out.println("second replay: " + (dropped(registry, group) - droppedBefore) + " dropped as duplicates, "
                    + processed.size() + " processed in all");

            assertThat(originalIds(processed)).as("each of the 50 reached the fixed listener once, over two replays")
                    .hasSize(MESSAGES).containsExactlyInAnyOrderElementsOf(sent.keySet());

            String one = sent.keySet().iterator().next();
            ToolRun byId = ToolRun.of("dlq", "replay", TOPIC, group, "--config", config, "--id", one + ",no-such-id", "--dry-run");
            assertThat(byId.exitCode()).as("an id that is not there").isEqualTo(ConfigTool.INVALID);
            assertThat(byId.out()).contains("would replay " + one).contains("total 1 would be replayed");
            assertThat(byId.err()).contains("not found on any cluster read: [no-such-id]");
            ToolRun byTime = ToolRun.of("dlq", "replay", TOPIC, group, "--config", config, "--between",
                    start.minus(Duration.ofHours(1)) + "/" + start.minus(Duration.ofMinutes(59)), "--dry-run");
            assertThat(byTime.exitCode()).as(byTime.err()).isZero();
            assertThat(byTime.out()).contains("total 0 would be replayed");
        } finally {
            platform.close();
        }
    }

    @Test
    void aGroupThatNeverDeadLetteredListsNoneOnEitherCluster() {
        String group = LocalPlatform.unique("dlq-none");
        LocalPlatform platform = LocalPlatform.on(RocketMqStack.shared()).addTopic("dlq-none", 2, 50, 50, group);
        try {
            ToolRun list = ToolRun.of("dlq", "list", "dlq-none", group, "--config", "file:" + platform.writeConfig());

            assertThat(list.exitCode()).as(list.out() + list.err()).isZero();
            assertThat(counts(list.out())).containsEntry(platform.idcA().clusterName(), 0)
                    .containsEntry(platform.idcB().clusterName(), 0);
            assertThat(list.out()).contains("total 0");
        } finally {
            platform.close();
        }
    }

    /** The broker stores a dead letter after the failed delivery is answered: poll until all are there. */
    private static ToolRun awaitListed(String group, String config, int expected) {
        ToolRun[] last = new ToolRun[1];
        await().atMost(DEADLINE).pollInterval(Duration.ofMillis(500)).until(() -> {
            last[0] = ToolRun.of("dlq", "list", TOPIC, group, "--config", config);
            return last[0].exitCode() == 0 && last[0].out().contains("total " + expected + "\n");
        });
        return last[0];
    }

    private static Map<String, Integer> counts(String listOutput) {
        Map<String, Integer> counts = new HashMap<>();
        Matcher matcher = CLUSTER_COUNT.matcher(listOutput);
        while (matcher.find()) {
            counts.put(matcher.group(1), Integer.parseInt(matcher.group(2)));
        }
        return counts;
    }

    private static List<String> originalIds(Queue<ReceivedMessage> processed) {
        return processed.stream().map(message -> message.properties().getOrDefault(Deduplication.ORIGINAL_MESSAGE_ID_PROPERTY,
                "not a replay: " + message.messageId())).toList();
    }

    private static double dropped(SimpleMeterRegistry registry, String group) {
        return registry.find(SdkMetrics.DUPLICATES_DROPPED).tag(SdkMetrics.TAG_GROUP, group).counters().stream().mapToDouble(Counter::count).sum();
    }
}

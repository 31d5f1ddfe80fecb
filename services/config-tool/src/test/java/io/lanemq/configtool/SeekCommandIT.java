package io.lanemq.configtool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.Consumer;
import io.lanemq.api.Message;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.api.Subscription;
import io.lanemq.localstack.LocalPlatform;
import io.lanemq.testkit.RocketMqStack;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** {@code lanemq-config seek} against real brokers on both clusters. */
class SeekCommandIT {
    @Test
    void aGroupIsMovedToTheEndOnBothClustersAndItsNextMemberSkipsWhatWaited() throws Exception {
        String group = LocalPlatform.unique("seek-tool");
        LocalPlatform platform = LocalPlatform.on(RocketMqStack.shared()).addTopic("seek-tool", 2, 50, 50, group);
        Set<String> seen = ConcurrentHashMap.newKeySet();
        try (MessagingClient client = platform.client("seek-tool-it");
             Producer producer = client.createProducer(ProducerOptions.defaults())) {
            try (Consumer consumer = client.subscribe(Subscription.builder("seek-tool", group).build(), message -> {
                seen.add(message.messageId());
                return ConsumeResult.SUCCESS;
            })) {
                Set<String> first = send(producer, 10);
                await().atMost(Duration.ofSeconds(60)).until(() -> seen.containsAll(first));
            }
            Set<String> waiting = send(producer, 10);

            ToolRun run = ToolRun.of("seek", "seek-tool", group, "--to-latest", "--config", "file:" + platform.writeConfig());

            assertThat(run.exitCode()).as(run.err()).isZero();
            assertThat(run.out()).contains(platform.idcA().clusterName() + " ", platform.idcB().clusterName() + " ")
                    .contains("queues moved, committed offsets written").doesNotContain("FAILED");
            try (Consumer consumer = client.subscribe(Subscription.builder("seek-tool", group).build(), message -> {
                seen.add(message.messageId());
                return ConsumeResult.SUCCESS;
            })) {
                Set<String> after = send(producer, 5);
                await().atMost(Duration.ofSeconds(60)).until(() -> seen.containsAll(after));
            }
            assertThat(seen).as("what waited when the group was moved to the end").doesNotContainAnyElementsOf(waiting);
        } finally {
            platform.close();
        }
    }

    @Test
    void anUndeclaredGroupAndAMissingTargetAreRefusedClearly() {
        LocalPlatform platform = LocalPlatform.on(RocketMqStack.shared()).addTopic("seek-tool-bad", 2, 50, 50, "declared");
        try {
            String config = "file:" + platform.writeConfig();
            ToolRun unknown = ToolRun.of("seek", "seek-tool-bad", "nobody", "--to-latest", "--config", config);
            assertThat(unknown.exitCode()).isEqualTo(ConfigTool.INVALID);
            assertThat(unknown.err()).contains("consumer group 'nobody' is not declared").contains("declared");

            ToolRun noTarget = ToolRun.of("seek", "seek-tool-bad", "declared", "--config", config);
            assertThat(noTarget.exitCode()).isEqualTo(2);
            assertThat(noTarget.err()).contains("--to-time").contains("--to-latest");
        } finally {
            platform.close();
        }
    }

    private static Set<String> send(Producer producer, int count) throws Exception {
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < count; i++) {
            ids.add(producer.send(Message.builder("seek-tool").body(("m" + i).getBytes(StandardCharsets.UTF_8)).build()).messageId());
        }
        return ids;
    }
}

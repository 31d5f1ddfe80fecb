package io.lanemq.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lanemq.api.ClientOptions;
import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.api.InvalidMessageException;
import io.lanemq.api.Message;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.api.SendResult;
import io.lanemq.api.Subscription;
import io.lanemq.api.TransactionResolution;
import io.lanemq.api.UnknownTopicException;
import io.lanemq.localstack.LocalPlatform;
import io.lanemq.testkit.RocketMqStack;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

/**
 * Each kind of bad input gets an error naming the problem and sends nothing: the topic has one
 * queue on one cluster, so a good message sent afterwards must land at offset 0.
 */
class BadInputIT {

    @Test
    void badInputIsRefusedBeforeAnyNetworkCallAndSendsNothing() throws Exception {
        String group = LocalPlatform.unique("bad-input");
        LocalPlatform platform = LocalPlatform.on(RocketMqStack.shared()).maxBodyBytes(1024).addTopic("audit-log", 1, 100, 0, group);

        try (MessagingClient client = platform.client("bad-input-it");
             Producer producer = client.createProducer(ProducerOptions.defaults())) {
            assertThatThrownBy(() -> producer.send(Message.builder("no-such-topic").body(new byte[10]).build()))
                    .isInstanceOf(UnknownTopicException.class)
                    .hasMessageContaining("unknown logic topic")
                    .hasMessageContaining("[logicTopic=no-such-topic]");
            assertThatThrownBy(() -> producer.sendAsync(Message.builder("no-such-topic").body(new byte[10]).build()).get())
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(UnknownTopicException.class);
            assertThatThrownBy(() -> producer.send(Message.builder("audit-log").body(new byte[1025]).build()))
                    .isInstanceOf(InvalidMessageException.class)
                    .hasMessageContaining("body is 1025 bytes, over the maximum of 1024 (producer.maxBodyBytes)")
                    .hasMessageContaining("[logicTopic=audit-log]");
            assertThatThrownBy(() -> Message.builder("audit-log").body(new byte[0]))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("body must not be empty");
            assertThatThrownBy(() -> Message.builder("audit-log").shardingKey(" "))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("shardingKey must not be null or blank");
            assertThatThrownBy(() -> Message.builder("audit-log").shardingKey("k".repeat(129)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("shardingKey is 129 characters");
            assertThatThrownBy(() -> Message.builder("bad topic!"))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("logicTopic must be");
            assertThatThrownBy(() -> producer.sendInTransaction(Message.builder("audit-log").body(new byte[1]).build(),
                    prepared -> TransactionResolution.COMMIT))
                    .isInstanceOf(InvalidConfigurationException.class)
                    .hasMessageContaining("has no transaction checker");
            assertThatThrownBy(() -> client.subscribe(Subscription.builder("audit-log", "undeclared-group").build(),
                    m -> null))
                    .isInstanceOf(UnknownTopicException.class)
                    .hasMessageContaining("consumer group 'undeclared-group' is not declared");

            SendResult good = producer.send(Message.builder("audit-log").body("ok".getBytes(StandardCharsets.UTF_8)).build());
            assertThat(good.cluster()).isEqualTo(platform.idcA().clusterName());
            assertThat(good.queueOffset()).as("nothing was stored before the good message").isZero();
        }
    }

    @Test
    void malformedConfigurationIsRejectedWithKeyAndLine() throws Exception {
        Path file = Files.createTempFile("lanemq-bad-", ".yaml");
        try {
            Files.writeString(file, LocalPlatform.on(RocketMqStack.shared()).yaml().replace("maxBodyBytes: 4194304", "maxBodyBytes: -5"));
            assertThatThrownBy(() -> MessagingClient.create(ClientOptions.builder("bad-config").configLocation(file.toString()).build()))
                    .isInstanceOf(InvalidConfigurationException.class)
                    .hasMessageContaining(file.getFileName().toString())
                    .hasMessageMatching("(?s).*producer\\.maxBodyBytes \\(line \\d+\\): must be between 1 and .*");
        } finally {
            Files.delete(file);
        }
    }
}

package io.lanemq.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.ClientOptions;
import io.lanemq.api.Consumer;
import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.api.InvalidMessageException;
import io.lanemq.api.Message;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.api.ReceivedMessage;
import io.lanemq.api.SendResult;
import io.lanemq.api.Subscription;
import io.lanemq.api.TransactionResolution;
import io.lanemq.api.UnknownTopicException;
import io.lanemq.localstack.LocalPlatform;
import io.lanemq.testkit.RocketMqStack;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * Each kind of bad input gets an error naming the problem and sends nothing: the topic has one
 * queue on one cluster, so a good message sent afterwards must land at offset 0. Its other cluster has
 * weight 0, drained: it takes no send, not even when the first answer of a freshly started cluster-a is slow.
 */
@Execution(ExecutionMode.CONCURRENT)
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

    /**
     * The largest body the platform allows (producer.maxBodyBytes, 4 MiB by default) travels whole to a DIRECT
     * consumer; one byte more is refused at send, naming the size and the limit. The body repeats a pattern: an
     * incompressible 4 MiB body is refused by a broker with RocketMQ's default 4 MiB limit, because the client
     * compresses every body over 4 KiB even when that makes it larger (see sdk-core's README, "Bad input and the size limit").
     */
    @Test
    void theLargestAllowedBodyReachesADirectConsumerWholeAndOneByteMoreIsRefused() throws Exception {
        String group = LocalPlatform.unique("largest-body");
        LocalPlatform platform = LocalPlatform.on(RocketMqStack.shared()).addTopic("large-body", 1, 100, 0, group);
        int limit = 4 * 1024 * 1024;
        byte[] body = new byte[limit];
        for (int i = 0; i < body.length; i++) {
            body[i] = (byte) (i % 251);
        }
        Received received = new Received();
        try (MessagingClient client = platform.client("largest-body-it");
             Producer producer = client.createProducer(ProducerOptions.defaults());
             Consumer consumer = client.subscribe(Subscription.builder("large-body", group).build(), received)) {
            assertThatThrownBy(() -> producer.send(Message.builder("large-body").body(new byte[limit + 1]).build()))
                    .isInstanceOf(InvalidMessageException.class)
                    .hasMessageContaining("body is " + (limit + 1) + " bytes, over the maximum of " + limit);
            SendResult sent = producer.send(Message.builder("large-body").body(body).build());

            await().atMost(Duration.ofSeconds(60)).until(() -> received.deliveriesById.containsKey(sent.messageId()));
            ReceivedMessage arrived = received.all.peek();
            assertThat(arrived.body()).as("the body, byte for byte").isEqualTo(body);
            assertThat(received.deliveries()).as("only the allowed one was stored").isEqualTo(1);
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

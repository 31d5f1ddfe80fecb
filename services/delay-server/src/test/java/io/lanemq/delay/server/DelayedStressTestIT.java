package io.lanemq.delay.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.Consumer;
import io.lanemq.api.Message;
import io.lanemq.api.MessageContext;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.api.ReceivedMessage;
import io.lanemq.api.SendResult;
import io.lanemq.api.Subscription;
import io.lanemq.localstack.LocalPlatform;
import io.lanemq.testkit.RocketMqStack;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A delayed stress-test message through a real delay server: it waits on the internal delay topic like any
 * delayed message, and the server's re-send, in no context but with the message's own stress-test mark,
 * lands on the logic topic's shadow topic, never on the production topic.
 */
class DelayedStressTestIT {

    @TempDir
    Path store;

    @Test
    void aDelayedStressMessageIsDeliveredByTheDelayServerToTheShadowTopic() throws Exception {
        String group = LocalPlatform.unique("stress-checker");
        Map<String, ReceivedMessage> arrived = new ConcurrentHashMap<>();
        try (LocalPlatform platform = LocalPlatform.on(RocketMqStack.shared()).enableDelay()
                .addTopic("reminders", 2, 50, 50, group).enableStressTest("reminders");
             MessagingClient client = platform.client("delayed-stress-it");
             Producer producer = client.createProducer(ProducerOptions.defaults());
             Consumer consumer = client.subscribe(Subscription.builder("reminders", group).build(), message -> {
                 arrived.putIfAbsent(message.keys().get(0), message);
                 return ConsumeResult.SUCCESS;
             });
             DelayServer server = DelayServer.start(DelayServerOptions.builder("file:" + platform.writeConfig(), store)
                     .metricsPort(0).build())) {
            Instant due = Instant.now().plus(Duration.ofSeconds(2));
            SendResult stress;
            try (MessageContext.Scope ignored = MessageContext.none().withStressTest(true).enter()) {
                stress = producer.send(reminder("stress", due));
            }
            SendResult production = producer.send(reminder("production", due));

            assertThat(stress.delayId()).isPresent();
            assertThat(production.delayId()).isPresent();
            await().atMost(Duration.ofSeconds(90)).until(() -> arrived.size() == 2);
            ReceivedMessage stressArrival = arrived.get("stress");
            assertThat(stressArrival.physicalTopic()).isEqualTo(platform.shadowTopic("reminders"));
            assertThat(stressArrival.stressTest()).isTrue();
            assertThat(arrived.get("production").physicalTopic()).isEqualTo(platform.physicalTopic("reminders"));
            assertThat(arrived.get("production").stressTest()).isFalse();
            assertThat(System.currentTimeMillis()).as("not before due").isGreaterThanOrEqualTo(due.toEpochMilli());
        }
    }

    private static Message reminder(String key, Instant due) {
        return Message.builder("reminders").keys(key).body(key.getBytes(StandardCharsets.UTF_8)).deliverAt(due).build();
    }
}

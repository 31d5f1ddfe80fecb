package io.lanemq.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.Consumer;
import io.lanemq.api.Message;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.api.ReceivedMessage;
import io.lanemq.api.SendResult;
import io.lanemq.api.Subscription;
import io.lanemq.localstack.LocalPlatform;
import io.lanemq.testkit.RocketMqStack;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/** A listener that answers retry-later, or throws, gets the same message again. */
@Execution(ExecutionMode.CONCURRENT)
class RetryLaterIT {

    @Test
    void retryLaterAndListenerExceptionsRedeliverTheSameMessage() throws Exception {
        String group = LocalPlatform.unique("retry");
        LocalPlatform platform = LocalPlatform.on(RocketMqStack.shared()).addTopic("shipment", 2, 50, 50, group);
        List<ReceivedMessage> deliveries = new CopyOnWriteArrayList<>();

        try (MessagingClient client = platform.client("retry-it");
             Producer producer = client.createProducer(ProducerOptions.defaults());
             Consumer consumer = client.subscribe(Subscription.builder("shipment", group).build(), message -> {
                 deliveries.add(message);
                 String key = message.keys().get(0);
                 if (message.deliveryAttempt() == 1 && key.equals("retry")) {
                     return ConsumeResult.RETRY_LATER;
                 }
                 if (message.deliveryAttempt() == 1 && key.equals("throw")) {
                     throw new IllegalStateException("simulated listener failure");
                 }
                 return ConsumeResult.SUCCESS;
             })) {
            SendResult retry = producer.send(Message.builder("shipment").keys("retry").property("origin", "it")
                    .body("r".getBytes(StandardCharsets.UTF_8)).build());
            SendResult thrown = producer.send(Message.builder("shipment").keys("throw")
                    .body("t".getBytes(StandardCharsets.UTF_8)).build());

            await().atMost(Duration.ofSeconds(60)).until(() -> deliveries.size() >= 4);
            for (SendResult sent : List.of(retry, thrown)) {
                List<ReceivedMessage> ofMessage = deliveries.stream().filter(d -> d.messageId().equals(sent.messageId())).toList();
                assertThat(ofMessage).extracting(ReceivedMessage::deliveryAttempt).containsExactly(1, 2);
                assertThat(ofMessage).allSatisfy(d -> {
                    assertThat(d.logicTopic()).isEqualTo("shipment");
                    assertThat(d.physicalTopic()).isEqualTo(sent.physicalTopic());
                    assertThat(d.cluster()).isEqualTo(sent.cluster());
                });
            }
            assertThat(deliveries.stream().filter(d -> d.messageId().equals(retry.messageId())).toList())
                    .allSatisfy(d -> assertThat(d.properties()).containsEntry("origin", "it"));
        }
    }
}

package io.lanemq.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lanemq.api.CancelOutcome;
import io.lanemq.api.InvalidMessageException;
import io.lanemq.api.Lane;
import io.lanemq.api.Message;
import io.lanemq.api.MessageContext;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.api.SendFailedException;
import io.lanemq.api.SendResult;
import io.lanemq.api.TransactionResolution;
import io.lanemq.config.DelayConfig;
import io.lanemq.core.delay.DelayProtocol;
import io.lanemq.localstack.LocalPlatform;
import io.lanemq.testkit.RocketMqStack;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.utils.MessageUtil;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.MessageExt;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The SDK's half of delayed messages against real brokers: what a delayed send puts on the
 * internal delay topic, the cancel round trip through RocketMQ's request-reply, and the refusals.
 *
 * <p>The replying side here is a plain RocketMQ consumer standing in for the delay server, so the
 * SDK's protocol is checked on its own; the delay server's own tests drive the real server with
 * this SDK.
 */
@Execution(ExecutionMode.CONCURRENT)
class DelayedSendIT {

    @Test
    void delayedSendLandsOnTheInternalTopicAndCancelGetsTheHoldersAnswer() throws Exception {
        String group = LocalPlatform.unique("delayed");
        LocalPlatform platform = LocalPlatform.on(RocketMqStack.shared()).enableDelay().addTopic("reminder", 2, 100, 0, group);
        DelayConfig delay = platform.delaySettings();
        Map<String, MessageExt> scheduled = new ConcurrentHashMap<>();
        DefaultMQProducer replier = new DefaultMQProducer(LocalPlatform.unique("delay-replier"));
        replier.setNamesrvAddr(platform.idcA().nameServerAddress());
        replier.start();
        DefaultMQPushConsumer holder = new DefaultMQPushConsumer(delay.serverGroup());
        holder.setNamesrvAddr(platform.idcA().nameServerAddress());
        holder.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        holder.subscribe(delay.internalTopic(), "*");
        holder.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
            for (MessageExt message : messages) {
                String id = message.getProperty(DelayProtocol.PROPERTY_ID);
                if (DelayProtocol.KIND_SCHEDULE.equals(message.getProperty(DelayProtocol.PROPERTY_KIND))) {
                    scheduled.put(id, message);
                } else {
                    String answer = scheduled.containsKey(id) ? CancelOutcome.CANCELLED.name() : CancelOutcome.UNKNOWN.name();
                    try {
                        replier.send(MessageUtil.createReplyMessage(message, answer.getBytes(StandardCharsets.UTF_8)));
                    } catch (Exception e) {
                        throw new IllegalStateException("reply failed", e);
                    }
                }
            }
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        holder.start();
        Instant due = Instant.now().plus(Duration.ofHours(1));
        try (MessagingClient client = platform.client("delayed-it");
             Producer producer = client.createProducer(ProducerOptions.defaults())) {
            SendResult sent;
            // Sent in a lane: the stored record keeps the stamp, which the delay server re-sends with the message.
            try (MessageContext.Scope ignored = MessageContext.none().withLane(Lane.of("A.X")).enter()) {
                sent = producer.send(Message.builder("reminder").body("pay".getBytes(StandardCharsets.UTF_8))
                        .keys("order-42").tag("unpaid").property("source", "checkout").shardingKey("customer-7")
                        .deliverAt(due).build());
            }

            assertThat(sent.cluster()).isEqualTo(platform.idcA().clusterName());
            assertThat(sent.physicalTopic()).isEqualTo(delay.internalTopic());
            String delayId = sent.delayId().orElseThrow();
            assertThat(delayId).endsWith("@" + platform.idcA().clusterName());
            String id = delayId.substring(0, delayId.indexOf('@'));
            assertThat(DelayProtocol.dueAtOf(id)).contains(due.toEpochMilli());
            Awaitility.await().atMost(30, TimeUnit.SECONDS).until(() -> scheduled.containsKey(id));
            MessageExt stored = scheduled.get(id);
            assertThat(new String(stored.getBody(), StandardCharsets.UTF_8)).isEqualTo("pay");
            assertThat(stored.getKeys()).isEqualTo("order-42");
            assertThat(stored.getProperty("source")).isEqualTo("checkout");
            assertThat(stored.getProperty(MessageContext.LANE_PROPERTY)).isEqualTo("A.X");
            assertThat(stored.getProperty(DelayProtocol.PROPERTY_LOGIC_TOPIC)).isEqualTo("reminder");
            assertThat(stored.getProperty(DelayProtocol.PROPERTY_TAG)).isEqualTo("unpaid");
            assertThat(stored.getProperty(DelayProtocol.PROPERTY_SHARDING_KEY)).isEqualTo("customer-7");
            assertThat(producer.sendAsync(Message.builder("reminder").body(new byte[1]).deliverAfter(Duration.ZERO).build())
                    .get(10, TimeUnit.SECONDS).delayId()).isPresent();

            assertThat(producer.cancelDelayed(delayId)).isEqualTo(CancelOutcome.CANCELLED);
            String neverSent = DelayProtocol.newId(due.toEpochMilli()) + "@" + platform.idcA().clusterName();
            assertThat(producer.cancelDelayed(neverSent)).isEqualTo(CancelOutcome.UNKNOWN);
        } finally {
            holder.shutdown();
            replier.shutdown();
        }
    }

    @Test
    void refusalsNameTheProblemAndACancelNobodyAnswersSaysItStaysQueued() throws Exception {
        LocalPlatform platform = LocalPlatform.on(RocketMqStack.shared()).enableDelay()
                .addTopic("late-reminder", 1, 100, 0, LocalPlatform.unique("late"));
        try (MessagingClient client = platform.client("delayed-refusals-it");
             Producer producer = client.createProducer(ProducerOptions.defaults())) {
            assertThatThrownBy(() -> producer.send(Message.builder("late-reminder").body(new byte[1])
                    .deliverAfter(Duration.ofDays(731)).build()))
                    .isInstanceOf(InvalidMessageException.class)
                    .hasMessageContaining("over the maximum delay of 63072000000 ms (delay.maxDelayMs)")
                    .hasMessageContaining("[logicTopic=late-reminder]");
            assertThatThrownBy(() -> Message.builder("late-reminder").deliverAfter(Duration.ofMillis(-1)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("deliverAfter must not be negative");
            assertThatThrownBy(() -> producer.sendInTransaction(Message.builder("late-reminder").body(new byte[1])
                    .deliverAfter(Duration.ofMinutes(1)).build(), prepared -> TransactionResolution.COMMIT))
                    .isInstanceOf(InvalidMessageException.class)
                    .hasMessageContaining("a delayed message cannot be sent in a transaction");
            assertThatThrownBy(() -> producer.cancelDelayed("not-an-id"))
                    .isInstanceOf(InvalidMessageException.class).hasMessageContaining("not a delay id");
            assertThatThrownBy(() -> producer.cancelDelayed(DelayProtocol.newId(1L) + "@no-such-cluster"))
                    .isInstanceOf(InvalidMessageException.class).hasMessageContaining("names cluster 'no-such-cluster'");

            SendResult sent = producer.send(Message.builder("late-reminder").body(new byte[1])
                    .deliverAfter(Duration.ofMinutes(5)).build());
            long began = System.nanoTime();
            assertThatThrownBy(() -> producer.cancelDelayed(sent.delayId().orElseThrow()))
                    .isInstanceOf(SendFailedException.class)
                    .hasMessageContaining("got no answer from a delay server: no reply to the request")
                    .hasMessageContaining("stays queued");
            assertThat(Duration.ofNanos(System.nanoTime() - began))
                    .isGreaterThanOrEqualTo(platform.delaySettings().cancelTimeout().minusMillis(100));
        }
    }
}

package io.lanemq.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.localstack.LocalPlatform;
import io.lanemq.proxy.protocol.Delivery;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.MessageClientIDSetter;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/** Deliveries that end without an ack come again: to other consumers after a disconnect, to the DLQ after the last attempt. */
@Execution(ExecutionMode.CONCURRENT) // waits on its own topic and group: see junit-platform.properties
class RedeliveryIT {

    @Test
    void whatAConsumerHeldWhenItsConnectionDiedIsRedeliveredToTheOthers() throws Exception {
        String group = LocalPlatform.unique("proxy-disconnect");
        LocalPlatform platform = ProxyHarness.platform().addTopic("proxy-disconnect", 2, 50, 50, group);
        try (ConsumerProxyServer proxy = ConsumerProxyServer.start(ProxyHarness.config(platform, b -> b));
             TestConsumer holder = ProxyHarness.consumer(proxy, "holder", d -> false)
                     .subscribe(ProxyHarness.APPLICATION, group, "proxy-disconnect", 10)) {
            List<String> ids = ProxyHarness.send(platform, "proxy-disconnect", 10, i -> null);
            await().atMost(Duration.ofSeconds(60)).until(() -> holder.deliveries.size() == 10);

            try (TestConsumer survivor = ProxyHarness.consumer(proxy, "survivor", d -> true)
                    .subscribe(ProxyHarness.APPLICATION, group, "proxy-disconnect", 10)) {
                await().atMost(Duration.ofSeconds(10)).until(() -> survivor.subscribed.get() != null);
                assertThat(survivor.deliveries).as("all ten are out with the holder").isEmpty();

                holder.kill();
                await().atMost(Duration.ofSeconds(30)).until(() -> survivor.acked.size() == 10);
                assertThat(survivor.acked).extracting(Delivery::getMessageId).containsExactlyInAnyOrderElementsOf(ids);
                assertThat(survivor.acked).allSatisfy(d -> assertThat(d.getAttempt()).isEqualTo(2));
                assertThat(proxy.meters().counter(ProxyMetrics.REDELIVERIES, "topic", "proxy-disconnect", "group", group,
                        "reason", "disconnect").count()).isEqualTo(10);
            }
        } finally {
            platform.close();
        }
    }

    @Test
    void aMessageNackedUntilItsLastAttemptLandsInTheGroupsDeadLetterTopic() throws Exception {
        String group = LocalPlatform.unique("proxy-dlq");
        // LocalPlatform's groups allow 5 delivery attempts; everything is sent to cluster A.
        LocalPlatform platform = ProxyHarness.platform().addTopic("proxy-dlq", 1, 100, 0, group);
        try (ConsumerProxyServer proxy = ConsumerProxyServer.start(ProxyHarness.config(platform, b -> b));
             TestConsumer rejecter = ProxyHarness.consumer(proxy, "rejecter", d -> false)
                     .subscribe(ProxyHarness.APPLICATION, group, "proxy-dlq", 100)) {
            String id = ProxyHarness.send(platform, "proxy-dlq", 1, i -> null).get(0);
            Set<Long> nacked = new HashSet<>();
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                for (Delivery delivery : rejecter.deliveries) {
                    if (nacked.add(delivery.getDeliveryId())) {
                        rejecter.nack(delivery, 50);
                    }
                }
                return nacked.size() == 5 && proxy.meters().counter(ProxyMetrics.DEAD_LETTERS, "topic", "proxy-dlq",
                        "group", group).count() == 1;
            });
            assertThat(rejecter.subscribed.get().getSubscribed().getMaxDeliveryAttempts()).isEqualTo(5);
            assertThat(rejecter.deliveries).extracting(Delivery::getAttempt).containsExactly(1, 2, 3, 4, 5);
            assertThat(rejecter.deliveries).extracting(Delivery::getMessageId).containsOnly(id);

            MessageExt dead = readOne(platform, "%DLQ%" + group);
            assertThat(MessageClientIDSetter.getUniqID(dead)).isEqualTo(id);
            assertThat(new String(dead.getBody(), StandardCharsets.UTF_8)).isEqualTo("message-0");
            assertThat(dead.getProperty(MessageConst.PROPERTY_RETRY_TOPIC)).isEqualTo(platform.physicalTopic("proxy-dlq"));
        } finally {
            platform.close();
        }
    }

    @Test
    void aMessageTheConsumerRejectsLandsInTheGroupsDeadLetterTopicAtItsFirstAttempt() throws Exception {
        String group = LocalPlatform.unique("proxy-reject");
        LocalPlatform platform = ProxyHarness.platform().addTopic("proxy-reject", 1, 100, 0, group);
        try (ConsumerProxyServer proxy = ConsumerProxyServer.start(ProxyHarness.config(platform, b -> b));
             TestConsumer rejecter = ProxyHarness.consumer(proxy, "rejecter", d -> false)
                     .subscribe(ProxyHarness.APPLICATION, group, "proxy-reject", 100)) {
            String id = ProxyHarness.send(platform, "proxy-reject", 1, i -> null).get(0);
            await().atMost(Duration.ofSeconds(60)).until(() -> !rejecter.deliveries.isEmpty());
            rejecter.deadLetter(rejecter.deliveries.get(0));

            await().atMost(Duration.ofSeconds(60)).until(() -> proxy.meters().counter(ProxyMetrics.DEAD_LETTERS, "topic",
                    "proxy-reject", "group", group).count() == 1);
            assertThat(rejecter.deliveries).as("no attempt spent on retries (the group allows 5)")
                    .extracting(Delivery::getAttempt).containsExactly(1);
            MessageExt dead = readOne(platform, "%DLQ%" + group);
            assertThat(MessageClientIDSetter.getUniqID(dead)).isEqualTo(id);
        } finally {
            platform.close();
        }
    }

    /** Reads the first message of a topic on cluster A with a throwaway group. */
    private static MessageExt readOne(LocalPlatform platform, String topic) throws Exception {
        DefaultLitePullConsumer reader = new DefaultLitePullConsumer(LocalPlatform.unique("dlq-reader"));
        reader.setNamesrvAddr(platform.idcA().nameServerAddress());
        reader.setInstanceName(LocalPlatform.unique("dlq-reader"));
        reader.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        reader.subscribe(topic, "*");
        reader.start();
        try {
            Set<MessageExt> read = new HashSet<>();
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                read.addAll(reader.poll(200));
                return !read.isEmpty();
            });
            assertThat(read.stream().map(MessageExt::getMsgId).collect(Collectors.toSet())).hasSize(1);
            return read.iterator().next();
        } finally {
            reader.shutdown();
        }
    }
}

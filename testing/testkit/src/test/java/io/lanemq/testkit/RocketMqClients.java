package io.lanemq.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;

/**
 * Raw RocketMQ clients for one test, all shut down by {@link #close()}. Every client gets an instance name that
 * includes its IDC: RocketMQ caches client instances per client id, and clients of two clusters must not share.
 */
final class RocketMqClients implements AutoCloseable {

    private final List<Runnable> shutdowns = new ArrayList<>();

    DefaultMQProducer producer(Idc idc, String group) throws MQClientException {
        return producer(idc, group, false);
    }

    /** A producer that, with {@code vipChannel}, sends to each broker's VIP port (listen port - 2). */
    DefaultMQProducer producer(Idc idc, String group, boolean vipChannel) throws MQClientException {
        DefaultMQProducer producer = new DefaultMQProducer(group);
        producer.setNamesrvAddr(idc.nameServerAddress());
        producer.setVipChannelEnabled(vipChannel);
        producer.setInstanceName(group + "-" + idc.name());
        producer.setSendMsgTimeout(3_000);
        producer.start();
        shutdowns.add(producer::shutdown);
        return producer;
    }

    /** A push consumer of a new group that starts at the first offset and adds each message's keys to {@code sink}. */
    DefaultMQPushConsumer consumer(Idc idc, String group, String topic, Set<String> sink) throws MQClientException {
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(group);
        consumer.setNamesrvAddr(idc.nameServerAddress());
        consumer.setInstanceName(group + "-" + idc.name());
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        // A new group can otherwise stall ~30 s on "subscription is not latest" (NOTES-rocketmq).
        consumer.setHeartbeatBrokerInterval(1_000);
        consumer.subscribe(topic, "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
            messages.forEach(m -> sink.add(m.getKeys()));
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        shutdowns.add(consumer::shutdown);
        return consumer;
    }

    @Override
    public void close() {
        for (int i = shutdowns.size() - 1; i >= 0; i--) {
            shutdowns.get(i).run();
        }
        shutdowns.clear();
    }
}

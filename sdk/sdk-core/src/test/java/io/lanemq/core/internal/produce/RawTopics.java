package io.lanemq.core.internal.produce;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.protocol.admin.TopicOffset;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;

/**
 * The physical topics of one cluster as the brokers hold them, below the SDK: how many messages a
 * topic stores (admin offsets) and what they are (a plain pull consumer assigned every queue from its
 * first offset), so a test sees where messages really landed.
 */
final class RawTopics implements AutoCloseable {
    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    private final String nameServer;
    private final DefaultMQAdminExt admin;

    RawTopics(String nameServer) throws MQClientException {
        this.nameServer = nameServer;
        admin = new DefaultMQAdminExt(3_000);
        admin.setNamesrvAddr(nameServer);
        admin.setInstanceName(uniqueName("raw-admin")); // one client instance per name server in this JVM
        admin.start();
    }

    /** Messages the topic stores on this cluster, over all its queues. */
    long stored(String topic) throws Exception {
        long stored = 0;
        for (TopicOffset offsets : admin.examineTopicStats(topic).getOffsetTable().values()) {
            stored += offsets.getMaxOffset() - offsets.getMinOffset();
        }
        return stored;
    }

    /** Every message the topic stores, read from its first offset once {@code expected} of them are there. */
    List<MessageExt> readAll(String topic, int expected) throws MQClientException {
        String name = uniqueName("raw-reader");
        DefaultLitePullConsumer consumer = new DefaultLitePullConsumer(name);
        consumer.setNamesrvAddr(nameServer);
        consumer.setInstanceName(name);
        consumer.setAutoCommit(false);
        consumer.start();
        try {
            Collection<MessageQueue> queues = consumer.fetchMessageQueues(topic);
            consumer.assign(queues);
            for (MessageQueue queue : queues) {
                consumer.seekToBegin(queue);
            }
            List<MessageExt> read = new ArrayList<>();
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                read.addAll(consumer.poll(200));
                return read.size() >= expected;
            });
            return read;
        } finally {
            consumer.shutdown();
        }
    }

    private static String uniqueName(String base) {
        return base + "-" + ProcessHandle.current().pid() + "-" + SEQUENCE.incrementAndGet();
    }

    @Override
    public void close() {
        admin.shutdown();
    }
}

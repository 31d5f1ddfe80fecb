package io.lanemq.rocketmq;

import io.lanemq.api.MessagingException;
import io.lanemq.api.spi.BoundOffsetReset;
import io.lanemq.api.spi.ClusterEndpoint;
import io.lanemq.api.spi.MessagingBinding;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.impl.MQClientAPIImpl;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.remoting.protocol.header.UpdateConsumerOffsetRequestHeader;
import org.apache.rocketmq.remoting.protocol.route.BrokerData;
import org.apache.rocketmq.remoting.protocol.route.QueueData;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;

/**
 * Resets a group's offsets on one cluster as {@code mqadmin resetOffsetByTime} does: each master broker of the topic is
 * asked to reset (RocketMQ's {@code INVOKE_BROKER_TO_RESET_OFFSET}, forced, so a time after the committed offset moves
 * the group forward too); the broker tells the group's live members, which drop what they fetched and, after about
 * 10 s (a fixed wait in RocketMQ's client), consume from the new offsets. A broker that has no live member of the group
 * answers {@code CONSUMER_NOT_ONLINE}, and the offsets are computed here instead. Either way the new offsets are then
 * also written as the group's committed offsets: a broker may still list a member that has just closed (its
 * unregistration races its last heartbeat), which then never moves, and the next member would start from the old
 * offsets; a live member that did move commits the same offsets itself. Runs on a short-lived client of its own,
 * closed before returning.
 */
final class OffsetResets {
    private static final long TIMEOUT_MS = 5_000;

    private OffsetResets() {
    }

    static BoundOffsetReset reset(ClusterEndpoint endpoint, String group, String topic, long timestampMillis)
            throws MessagingException {
        String context = "reset of group '" + group + "' on topic " + topic + " to "
                + (timestampMillis == MessagingBinding.LATEST ? "the latest offsets" : "timestamp " + timestampMillis);
        DefaultMQProducer client = new DefaultMQProducer("lanemq_offset_reset", RawClientSupport.rpcHook(endpoint));
        RawClientSupport.connect(client, endpoint, RocketMqClients.instanceName(endpoint.clusterName()) + "-reset-"
                + UUID.randomUUID());
        try {
            client.start();
            MQClientAPIImpl api = client.getDefaultMQProducerImpl().getMqClientFactory().getMQClientAPIImpl();
            TopicRouteData route = api.getTopicRouteInfoFromNameServer(topic, TIMEOUT_MS);
            int queues = 0;
            boolean told = false;
            for (BrokerData broker : route.getBrokerDatas()) {
                String master = broker.getBrokerAddrs().get(MixAll.MASTER_ID);
                if (master == null) {
                    throw new MQClientException("broker " + broker.getBrokerName() + " has no master to reset", null);
                }
                Map<MessageQueue, Long> offsets;
                try {
                    offsets = api.invokeBrokerToResetOffset(master, topic, group, timestampMillis, true, TIMEOUT_MS, false);
                    told = true;
                } catch (MQClientException e) {
                    if (e.getResponseCode() != ResponseCode.CONSUMER_NOT_ONLINE) {
                        throw e;
                    }
                    offsets = offsets(api, master, broker.getBrokerName(), route, topic, timestampMillis);
                }
                commit(api, master, group, offsets);
                queues += offsets.size();
            }
            return new BoundOffsetReset(queues, told);
        } catch (Exception e) {
            throw RawClientSupport.failed(e, context, endpoint.clusterName());
        } finally {
            client.shutdown();
        }
    }

    /** The offsets of the broker's queues of {@code topic} at the timestamp, or their ends. */
    private static Map<MessageQueue, Long> offsets(MQClientAPIImpl api, String address, String brokerName, TopicRouteData route,
                                                   String topic, long timestampMillis) throws Exception {
        int queues = route.getQueueDatas().stream().filter(data -> data.getBrokerName().equals(brokerName))
                .mapToInt(QueueData::getWriteQueueNums).findFirst().orElse(0);
        Map<MessageQueue, Long> offsets = new HashMap<>();
        for (int queueId = 0; queueId < queues; queueId++) {
            MessageQueue queue = new MessageQueue(topic, brokerName, queueId);
            offsets.put(queue, timestampMillis == MessagingBinding.LATEST ? api.getMaxOffset(address, queue, TIMEOUT_MS)
                    : api.searchOffset(address, queue, timestampMillis, TIMEOUT_MS));
        }
        return offsets;
    }

    /** Writes {@code offsets} as the group's committed offsets on the broker at {@code address}. */
    private static void commit(MQClientAPIImpl api, String address, String group, Map<MessageQueue, Long> offsets)
            throws Exception {
        for (Map.Entry<MessageQueue, Long> entry : offsets.entrySet()) {
            UpdateConsumerOffsetRequestHeader header = new UpdateConsumerOffsetRequestHeader();
            header.setConsumerGroup(group);
            header.setTopic(entry.getKey().getTopic());
            header.setQueueId(entry.getKey().getQueueId());
            header.setCommitOffset(entry.getValue());
            header.setBrokerName(entry.getKey().getBrokerName());
            api.updateConsumerOffset(address, header, TIMEOUT_MS);
        }
    }
}

package io.lanemq.dialtest;

import io.lanemq.core.delay.DelayProtocol;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;

/**
 * Delayed probes through the project's delay server: each probe is written, as the SDK would write a delayed
 * message, to the internal delay topic on the target broker (so a failing broker shows in this kind too), held by
 * the delay server reading that cluster, and delivered through the SDK to the logic topic the platform routes to
 * the probe topic. Its latency counts from the due time, so it reads as the delay server's delivery error.
 */
final class DelayServerProbeSender extends DueTimeProbeSender {

    private final DialTestOptions.DelayServerTarget target;
    /** The internal topic's queues on each broker, looked up once per broker. */
    private final Map<String, List<MessageQueue>> queuesByBroker = new ConcurrentHashMap<>();

    DelayServerProbeSender(DefaultMQProducer producer, long timeoutMillis, long delayMillis, InstantSource wallClock,
                           DialTestOptions.DelayServerTarget target) {
        super(producer, timeoutMillis, delayMillis, wallClock);
        this.target = target;
    }

    @Override
    public ProbeKind kind() {
        return ProbeKind.DELAY_SERVER;
    }

    @Override
    public void send(Message message, MessageQueue probeQueue, long laneSequence, SendCallback callback) throws Exception {
        List<MessageQueue> queues = internalQueues(probeQueue.getBrokerName());
        String id = DelayProtocol.newId(dueAtMillis());
        message.setTopic(target.internalTopic());
        message.putUserProperty(DelayProtocol.PROPERTY_KIND, DelayProtocol.KIND_SCHEDULE);
        message.putUserProperty(DelayProtocol.PROPERTY_ID, id);
        message.putUserProperty(DelayProtocol.PROPERTY_LOGIC_TOPIC, target.logicTopic());
        if (message.getTags() != null) {
            message.putUserProperty(DelayProtocol.PROPERTY_TAG, message.getTags());
        }
        producer.send(message, queues.get((int) (laneSequence % queues.size())), callback, timeoutMillis);
    }

    private List<MessageQueue> internalQueues(String broker) throws Exception {
        List<MessageQueue> known = queuesByBroker.get(broker);
        if (known != null) {
            return known;
        }
        List<MessageQueue> onBroker = producer.fetchPublishMessageQueues(target.internalTopic()).stream()
            .filter(q -> q.getBrokerName().equals(broker)).toList();
        if (onBroker.isEmpty()) {
            throw new IllegalStateException("the internal delay topic " + target.internalTopic() + " has no queue on broker "
                + broker + ": create it there, or leave the delay_server kind out");
        }
        queuesByBroker.put(broker, onBroker);
        return onBroker;
    }
}

package io.lanemq.dialtest;

import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;

/** Plain messages, sent asynchronously to the given queue. */
final class NormalProbeSender implements ProbeSender {

    private final DefaultMQProducer producer;
    private final long timeoutMillis;

    NormalProbeSender(DefaultMQProducer producer, long timeoutMillis) {
        this.producer = producer;
        this.timeoutMillis = timeoutMillis;
    }

    @Override
    public ProbeKind kind() {
        return ProbeKind.NORMAL;
    }

    @Override
    public long delayMillis() {
        return 0;
    }

    @Override
    public long allowanceNanos(long laneSequence) {
        return 0;
    }

    @Override
    public void send(Message message, MessageQueue queue, long laneSequence, SendCallback callback) throws Exception {
        producer.send(message, queue, callback, timeoutMillis);
    }
}

package io.lanemq.dialtest;

import java.time.InstantSource;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;

/**
 * Delayed probes through RocketMQ 5's native timer ({@code setDeliverTimeMs}; the broker needs
 * {@code timerWheelEnable}, on by default). Its precision is the broker's {@code timerPrecisionMs} (1 s by
 * default), which the latency of this kind shows.
 */
final class TimerProbeSender extends DueTimeProbeSender {

    TimerProbeSender(DefaultMQProducer producer, long timeoutMillis, long delayMillis, InstantSource wallClock) {
        super(producer, timeoutMillis, delayMillis, wallClock);
    }

    @Override
    public ProbeKind kind() {
        return ProbeKind.DELAYED;
    }

    @Override
    public void send(Message message, MessageQueue queue, long laneSequence, SendCallback callback) throws Exception {
        message.setDeliverTimeMs(dueAtMillis());
        producer.send(message, queue, callback, timeoutMillis);
    }
}

package io.lanemq.spring;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.MessageListener;
import io.lanemq.api.ReceivedMessage;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** Counts deliveries per message id, for the integration test to assert exactly-once delivery. */
class RecordingListener implements MessageListener {
    final Map<String, AtomicInteger> deliveriesById = new ConcurrentHashMap<>();
    final AtomicInteger deliveries = new AtomicInteger();

    @Override
    public ConsumeResult consume(ReceivedMessage message) {
        deliveriesById.computeIfAbsent(message.messageId(), id -> new AtomicInteger()).incrementAndGet();
        deliveries.incrementAndGet();
        return ConsumeResult.SUCCESS;
    }

    long duplicates() {
        return deliveriesById.values().stream().filter(n -> n.get() > 1).count();
    }
}

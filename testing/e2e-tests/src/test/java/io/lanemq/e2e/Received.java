package io.lanemq.e2e;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.MessageListener;
import io.lanemq.api.ReceivedMessage;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/** A listener that records every delivery, for tests to assert on. */
final class Received implements MessageListener {
    final Map<String, AtomicInteger> deliveriesById = new ConcurrentHashMap<>();
    final Map<String, AtomicInteger> byCluster = new ConcurrentHashMap<>();
    final ConcurrentLinkedQueue<ReceivedMessage> all = new ConcurrentLinkedQueue<>();

    @Override
    public ConsumeResult consume(ReceivedMessage message) {
        all.add(message);
        deliveriesById.computeIfAbsent(message.messageId(), id -> new AtomicInteger()).incrementAndGet();
        byCluster.computeIfAbsent(message.cluster(), c -> new AtomicInteger()).incrementAndGet();
        return ConsumeResult.SUCCESS;
    }

    /** Deliveries, copies included. */
    long deliveries() {
        return all.size();
    }

    int distinct() {
        return deliveriesById.size();
    }

    long duplicates() {
        return deliveriesById.values().stream().mapToInt(AtomicInteger::get).filter(n -> n > 1).count();
    }

    int fromCluster(String cluster) {
        AtomicInteger n = byCluster.get(cluster);
        return n == null ? 0 : n.get();
    }
}

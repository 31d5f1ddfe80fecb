package io.lanemq.example;

import io.lanemq.spring.LaneMqListener;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.stereotype.Component;

/** Books paid orders in batches, as a ledger writing one bulk insert per call would. */
@Component
public class Ledger {
    private final Map<Long, OrderPaid> booked = new ConcurrentHashMap<>();
    private final List<Integer> batchSizes = new CopyOnWriteArrayList<>();

    @LaneMqListener(topic = "order-paid", group = "ledger", concurrency = "16", batchSize = "16", batchWait = "PT0.2S")
    void book(List<OrderPaid> orders) {
        batchSizes.add(orders.size());
        orders.forEach(order -> booked.put(order.orderId(), order));
    }

    public Map<Long, OrderPaid> booked() {
        return Map.copyOf(booked);
    }

    public List<Integer> batchSizes() {
        return List.copyOf(batchSizes);
    }
}

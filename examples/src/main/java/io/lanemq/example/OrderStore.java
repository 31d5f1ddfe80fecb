package io.lanemq.example;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.stereotype.Component;

/**
 * Stands in for the orders table: what a local transaction writes and the transaction checker reads. The checker
 * depends on this, never on the service that sends (that service needs the producer, which needs the checker).
 */
@Component
public class OrderStore {
    private final Set<Long> paid = ConcurrentHashMap.newKeySet();

    void markPaid(long orderId) {
        paid.add(orderId);
    }

    boolean isPaid(long orderId) {
        return paid.contains(orderId);
    }
}

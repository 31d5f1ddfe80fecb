package io.lanemq.example;

import io.lanemq.api.TransactionChecker;
import io.lanemq.api.TransactionResolution;
import io.lanemq.spring.LaneMqHeaders;
import io.lanemq.spring.LaneMqListener;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.messaging.handler.annotation.Header;
import org.springframework.messaging.handler.annotation.Payload;
import org.springframework.stereotype.Component;

/** Consumes paid orders as objects. */
@Component
public class Billing {
    private final Map<Long, OrderPaid> charged = new ConcurrentHashMap<>();

    @LaneMqListener(topic = "order-paid", group = "billing")
    void onPaid(@Payload OrderPaid order, @Header(LaneMqHeaders.KEYS) String key) {
        charged.put(order.orderId(), order);
    }

    public Map<Long, OrderPaid> charged() {
        return Map.copyOf(charged);
    }

    /** Answers the broker's check-back from the order store. */
    @Configuration(proxyBeanMethods = false)
    static class Transactions {
        @Bean
        TransactionChecker paidOrdersChecker(OrderStore orders) {
            return prepared -> orders.isPaid(Long.parseLong(prepared.keys().get(0).substring("order-".length())))
                    ? TransactionResolution.COMMIT : TransactionResolution.ROLLBACK;
        }
    }
}

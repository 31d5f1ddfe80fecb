package io.lanemq.example;

import io.lanemq.api.MessagingException;
import io.lanemq.api.SendResult;
import io.lanemq.api.TransactionResolution;
import io.lanemq.spring.LaneMqTemplate;
import org.springframework.stereotype.Service;

/** Publishes paid orders: plainly, and in a transaction with the order store. */
@Service
public class Checkout {
    private final LaneMqTemplate lanemq;
    private final OrderStore orders;

    public Checkout(LaneMqTemplate lanemq, OrderStore orders) {
        this.lanemq = lanemq;
        this.orders = orders;
    }

    public SendResult paid(OrderPaid order) throws MessagingException {
        return lanemq.convertAndSend("order-paid", order, message -> message.keys("order-" + order.orderId()));
    }

    /** The event is visible to billing only once the order is marked paid here. */
    public SendResult paidInTransaction(OrderPaid order) throws MessagingException {
        return lanemq.sendInTransaction(lanemq.toMessage("order-paid", order).keys("order-" + order.orderId()).build(), prepared -> {
            orders.markPaid(order.orderId());
            return TransactionResolution.COMMIT;
        });
    }
}

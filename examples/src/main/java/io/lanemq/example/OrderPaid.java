package io.lanemq.example;

import java.math.BigDecimal;
import java.time.Instant;

/** The event checkout publishes on the logic topic {@code order-paid}, as JSON. */
public record OrderPaid(long orderId, BigDecimal amount, Instant paidAt) {
}

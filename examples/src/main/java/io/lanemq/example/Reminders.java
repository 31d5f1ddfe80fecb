package io.lanemq.example;

import io.lanemq.api.CancelOutcome;
import io.lanemq.api.Lane;
import io.lanemq.api.MessagingException;
import io.lanemq.spring.LaneMqHeaders;
import io.lanemq.spring.LaneMqListener;
import io.lanemq.spring.LaneMqTemplate;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.messaging.handler.annotation.Header;
import org.springframework.stereotype.Component;

/**
 * Reminds a customer of an unpaid order after a delay, unless the order was paid first (the reminder is cancelled).
 * The reminder carries the lane of the request that scheduled it, so a lane's test traffic stays in its lane.
 */
@Component
public class Reminders {
    private final LaneMqTemplate lanemq;
    private final Map<Long, Reminded> reminded = new ConcurrentHashMap<>();

    /** What arrived: when, and in which lane (empty: the base). */
    public record Reminded(Instant at, Optional<Lane> lane) {
    }

    public Reminders(LaneMqTemplate lanemq) {
        this.lanemq = lanemq;
    }

    /** Schedules the reminder; the returned id cancels it. */
    public String remindLater(OrderPaid order, Duration after) throws MessagingException {
        return lanemq.sendDelayed("order-reminder", order, after, message -> message.keys("order-" + order.orderId()))
                .delayId().orElseThrow();
    }

    public CancelOutcome cancel(String reminderId) throws MessagingException {
        return lanemq.cancelDelayed(reminderId);
    }

    @LaneMqListener(topic = "order-reminder", group = "notifier")
    void remind(OrderPaid order, @Header(LaneMqHeaders.LANE) Optional<Lane> lane) {
        reminded.put(order.orderId(), new Reminded(Instant.now(), lane));
    }

    public Map<Long, Reminded> reminded() {
        return Map.copyOf(reminded);
    }
}

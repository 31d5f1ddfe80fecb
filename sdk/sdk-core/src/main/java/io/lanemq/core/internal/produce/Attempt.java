package io.lanemq.core.internal.produce;

import io.lanemq.api.SendResult;
import io.lanemq.api.spi.BoundSendResult;
import io.lanemq.api.spi.PhysicalMessage;
import io.lanemq.core.delay.DelayTicket;
import io.lanemq.core.internal.routing.RouteLease;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One attempt of one send, on one route.
 *
 * @param delayId for a delayed message, the id of its record at the delay server; null otherwise
 * @param judged  set once the attempt's outcome was fed back to the failover: an attempt given up on as
 *                unanswered is judged a failure then, and its late answer teaches nothing more
 */
record Attempt(String logicTopic, RouteLease lease, PhysicalMessage physical, String delayId, long startNanos,
               AtomicBoolean judged) {
    String cluster() {
        return lease.route().cluster();
    }

    SendResult result(BoundSendResult sent) {
        Optional<String> ticket = Optional.ofNullable(delayId).map(id -> new DelayTicket(id, cluster()).toString());
        return new SendResult(sent.messageId(), logicTopic, cluster(), sent.topic(), sent.queueId(), sent.queueOffset(),
                ticket, sent.storedAsConfigured());
    }

    /** True for the first caller only: that one reports the outcome to the failover. */
    boolean judge() {
        return judged.compareAndSet(false, true);
    }
}

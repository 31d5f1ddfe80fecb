package io.lanemq.core.internal.produce;

import io.lanemq.api.Lane;
import io.lanemq.api.Message;
import io.lanemq.api.MessageContext;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Stamps the sender's {@link MessageContext} on a message: the lane of the context, or this instance's own
 * lane when the context has none (a lane deployment's background work stays in its lane), and the
 * stress-test mark. A mark the message sets itself wins, so a service that re-sends a message (the delay
 * server) keeps the marks it arrived with.
 */
public final class ContextStamp {
    private final Optional<Lane> instanceLane;

    public ContextStamp(Optional<Lane> instanceLane) {
        this.instanceLane = instanceLane;
    }

    /** Whether properties {@link #properties stamped} for a send mark it as stress-test traffic, for a shadow topic. */
    static boolean marksStressTest(Map<String, String> stamped) {
        return "true".equals(stamped.get(MessageContext.STRESS_TEST_PROPERTY));
    }

    /** The properties {@code message} is sent with; its own map, not a copy, when there is nothing to add (the usual case). */
    Map<String, String> properties(Message message) {
        MessageContext context = MessageContext.current();
        Optional<Lane> lane = context.lane().or(() -> instanceLane);
        Map<String, String> own = message.properties();
        boolean addLane = lane.isPresent() && !own.containsKey(MessageContext.LANE_PROPERTY);
        boolean addStress = context.stressTest() && !own.containsKey(MessageContext.STRESS_TEST_PROPERTY);
        if (!addLane && !addStress) {
            return own;
        }
        Map<String, String> stamped = new LinkedHashMap<>(own);
        if (addLane) {
            stamped.put(MessageContext.LANE_PROPERTY, lane.get().path());
        }
        if (addStress) {
            stamped.put(MessageContext.STRESS_TEST_PROPERTY, "true");
        }
        return stamped;
    }
}

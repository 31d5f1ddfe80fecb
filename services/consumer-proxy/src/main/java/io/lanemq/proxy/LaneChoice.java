package io.lanemq.proxy;

import io.lanemq.api.Lane;
import io.lanemq.api.MessageContext;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Which lane's consumers take a message: the most specific lane on the message's lane path that has a
 * connected consumer ({@code A.X}, then {@code A}, then the base), the rule of DIRECT mode's lane routing
 * ({@code LaneDirectory} in sdk-core). Only connection counts: a lane whose consumers are connected but
 * fail (nack, ack timeout) keeps its messages, which are redelivered to it; its messages fall back
 * once its last consumer disconnects, because the next choice no longer finds it.
 *
 * <p>Lanes are paths ({@link Lane#path()}), the base is {@link #BASE}. A stamp that is not a lane path
 * counts as the base, as {@code ReceivedMessage.lane()} reads it. Not thread-safe: used under the
 * owning {@link GroupDispatcher}'s lock.
 */
final class LaneChoice {
    /** The base lane (consumers and messages without a lane). */
    static final String BASE = "";

    /** Connected consumers by lane; a lane is here only while it has one. */
    private final Map<String, Integer> consumers = new HashMap<>();

    void join(String lane) {
        consumers.merge(lane, 1, Integer::sum);
    }

    void leave(String lane) {
        consumers.computeIfPresent(lane, (l, n) -> n == 1 ? null : n - 1);
    }

    /** How many lanes (the base counted) have a connected consumer. */
    int lanes() {
        return consumers.size();
    }

    /** The lane stamped on a message (its {@link MessageContext#LANE_PROPERTY}), or {@link #BASE}. */
    static String laneOf(Map<String, String> properties) {
        String stamp = properties.get(MessageContext.LANE_PROPERTY);
        return stamp == null ? BASE : Lane.parse(stamp).map(Lane::path).orElse(BASE);
    }

    /**
     * The lane whose consumers take a message of {@code lane} now; null when no lane on its path, the base
     * included, has a connected consumer (the message waits).
     */
    String target(String lane) {
        if (consumers.size() == 1 && consumers.containsKey(BASE)) {
            return BASE; // no lane member connected, the common case: no path to walk
        }
        if (!lane.isEmpty()) {
            Optional<Lane> parsed = Lane.parse(lane);
            if (parsed.isPresent()) {
                for (Lane step : parsed.get().fallbackPath()) {
                    if (consumers.containsKey(step.path())) {
                        return step.path();
                    }
                }
            }
        }
        return consumers.containsKey(BASE) ? BASE : null;
    }
}

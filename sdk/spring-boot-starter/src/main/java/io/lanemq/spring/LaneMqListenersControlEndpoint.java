package io.lanemq.spring;

import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

/**
 * The {@code lanemqlisteners} endpoint with writes: {@code POST /actuator/lanemqlisteners/{id}} with
 * {@code {"action": "pause"}} or {@code "resume"} answers the listener's new state. Only with
 * {@code lanemq.listeners.endpoint.control=true}: a pause stops a consumer group's processing in this instance, and the
 * starter cannot know how the application secures its management endpoints, so the operator who turns it on is the
 * one who puts it behind the application's security (e.g. Spring Security on the management port, as for any
 * Actuator write operation). Stopping and starting stay in code ({@link LaneMqListenerRegistry}).
 */
@Endpoint(id = LaneMqListenersEndpoint.ID)
public class LaneMqListenersControlEndpoint extends LaneMqListenersEndpoint {
    public LaneMqListenersControlEndpoint(LaneMqListenerRegistry registry) {
        super(registry);
    }

    /** Pauses or resumes listener {@code id}; another action answers 400 naming the two. */
    @WriteOperation
    public LaneMqListenerRegistry.Listener control(@Selector String id, String action) {
        return answer(() -> switch (action == null ? "" : action.strip().toLowerCase(java.util.Locale.ROOT)) {
            case "pause" -> registry().pause(id);
            case "resume" -> registry().resume(id);
            default -> throw new IllegalArgumentException("action must be 'pause' or 'resume', was '" + action + "'");
        });
    }
}

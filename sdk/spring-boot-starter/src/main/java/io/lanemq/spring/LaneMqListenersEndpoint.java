package io.lanemq.spring;

import java.util.List;
import java.util.function.Supplier;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

/**
 * The {@code lanemqlisteners} Actuator endpoint: every {@link LaneMqListener} with its id, topic, group and state
 * ({@code GET /actuator/lanemqlisteners}, {@code GET /actuator/lanemqlisteners/{id}}). Read-only; with
 * {@code lanemq.listeners.endpoint.control=true} it is a {@link LaneMqListenersControlEndpoint}, which also pauses and
 * resumes. Like every Actuator endpoint but health, it is served over HTTP only once the application exposes it
 * ({@code management.endpoints.web.exposure.include}).
 */
@Endpoint(id = LaneMqListenersEndpoint.ID)
public class LaneMqListenersEndpoint {
    public static final String ID = "lanemqlisteners";

    private final LaneMqListenerRegistry registry;

    public LaneMqListenersEndpoint(LaneMqListenerRegistry registry) {
        this.registry = registry;
    }

    @ReadOperation
    public List<LaneMqListenerRegistry.Listener> listeners() {
        return registry.listeners();
    }

    /** One listener; an unknown id answers 400 naming the known ones. */
    @ReadOperation
    public LaneMqListenerRegistry.Listener listener(@Selector String id) {
        return answer(() -> registry.listener(id));
    }

    /** What the registry answers; a refusal (unknown id, stopped listener) becomes a 400 with its message. */
    static LaneMqListenerRegistry.Listener answer(Supplier<LaneMqListenerRegistry.Listener> call) {
        try {
            return call.get();
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new InvalidEndpointRequestException(e.getMessage(), e.getMessage());
        }
    }

    LaneMqListenerRegistry registry() {
        return registry;
    }
}

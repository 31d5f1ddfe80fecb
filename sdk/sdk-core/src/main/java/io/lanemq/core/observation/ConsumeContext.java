package io.lanemq.core.observation;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.ReceivedMessage;
import io.micrometer.observation.transport.Kind;
import io.micrometer.observation.transport.ReceiverContext;
import java.util.Objects;

/**
 * The context of one {@value LaneMqObservations#CONSUME} observation. Its carrier is the delivered message: a
 * tracing handler reads the producer's trace context from its properties, so the listener's span continues the
 * sender's trace.
 */
public final class ConsumeContext extends ReceiverContext<ReceivedMessage> {
    private final String group;
    private volatile String outcome = LaneMqObservations.ERROR;

    public ConsumeContext(ReceivedMessage message, String group) {
        super((carrier, key) -> carrier.properties().get(key), Kind.CONSUMER);
        setCarrier(Objects.requireNonNull(message, "message"));
        this.group = Objects.requireNonNull(group, "group");
    }

    public ReceivedMessage message() {
        return getCarrier();
    }

    /** The consumer group the listener consumes for. */
    public String group() {
        return group;
    }

    /** Records the listener's answer (null counts as RETRY_LATER, as the SDK treats it). */
    public void answered(ConsumeResult result) {
        this.outcome = LaneMqObservations.outcome(result);
    }

    /** What became of the delivery: success, retry, or error until the listener answered. */
    public String outcome() {
        return outcome;
    }
}

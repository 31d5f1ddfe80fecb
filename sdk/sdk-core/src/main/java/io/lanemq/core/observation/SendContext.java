package io.lanemq.core.observation;

import io.lanemq.api.SendResult;
import io.micrometer.observation.transport.Kind;
import io.micrometer.observation.transport.SenderContext;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The context of one {@value LaneMqObservations#SEND} observation. Its carrier is a map of message properties: a
 * tracing handler writes the trace context into it when the observation starts, and the send adds those entries
 * to the message's own properties, so they travel with the message to every consumer, through the consumer proxy
 * and lane forwarding alike (both carry properties whole).
 */
public final class SendContext extends SenderContext<Map<String, String>> {
    private final String logicTopic;
    private volatile SendResult result;

    public SendContext(String logicTopic) {
        super((carrier, key, value) -> carrier.put(key, value), Kind.PRODUCER);
        this.logicTopic = Objects.requireNonNull(logicTopic, "logicTopic");
        setCarrier(new LinkedHashMap<>());
    }

    public String logicTopic() {
        return logicTopic;
    }

    /** The broker's acknowledgement, once the send succeeded. */
    public Optional<SendResult> result() {
        return Optional.ofNullable(result);
    }

    /** Records the acknowledgement of the send. */
    public void succeeded(SendResult acknowledged) {
        this.result = Objects.requireNonNull(acknowledged, "acknowledged");
    }

    /** The cluster that stored the message; empty while unacknowledged, and for a send that failed. */
    public Optional<String> cluster() {
        return result().map(SendResult::cluster);
    }

    public Optional<String> messageId() {
        return result().map(SendResult::messageId);
    }

    /** {@link LaneMqObservations#SUCCESS} once acknowledged, else {@link LaneMqObservations#FAILURE}. */
    public String outcome() {
        return result == null ? LaneMqObservations.FAILURE : LaneMqObservations.SUCCESS;
    }
}

package io.lanemq.core.internal.produce;

import io.lanemq.api.SendResult;
import io.lanemq.core.observation.LaneMqObservations;
import io.lanemq.core.observation.SendContext;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * One send's {@value LaneMqObservations#SEND} observation: started before the message's properties are fixed, so
 * the trace context a tracing handler writes at its start travels in them, and stopped when the send completes.
 * Without an observation registry (the default) it is {@link #NONE}: nothing is created or copied per send.
 */
class SendObservation {
    /** What a send does when nothing observes it. */
    static final SendObservation NONE = new SendObservation();

    /** Observations of one producer's sends on {@code registry}; {@link #NONE} when the registry is a no-op. */
    interface Factory {
        SendObservation start(String logicTopic);

        static Factory of(ObservationRegistry registry) {
            if (registry.isNoop()) {
                return logicTopic -> NONE;
            }
            return logicTopic -> new Started(logicTopic, registry);
        }
    }

    private SendObservation() {
    }

    /** The properties to send: {@code stamped}, plus the trace context the observation's handlers wrote. */
    Map<String, String> properties(Map<String, String> stamped) {
        return stamped;
    }

    /** Stops the observation when {@code sending} completes; returns it. */
    CompletableFuture<SendResult> watch(CompletableFuture<SendResult> sending) {
        return sending;
    }

    /** Stops the observation for a send that failed before it started, or synchronously. */
    void failed(Throwable failure) {
    }

    /** Stops the observation for a send acknowledged synchronously. */
    void succeeded(SendResult result) {
    }

    private static final class Started extends SendObservation {
        private final SendContext context;
        private final Observation observation;

        Started(String logicTopic, ObservationRegistry registry) {
            this.context = new SendContext(logicTopic);
            this.observation = Observation.createNotStarted(null, LaneMqObservations.SEND_CONVENTION, () -> context, registry)
                    .start();
        }

        @Override
        Map<String, String> properties(Map<String, String> stamped) {
            Map<String, String> written = context.getCarrier();
            if (written == null || written.isEmpty()) {
                return stamped;
            }
            Map<String, String> properties = new LinkedHashMap<>(stamped);
            properties.putAll(written);
            return properties;
        }

        @Override
        CompletableFuture<SendResult> watch(CompletableFuture<SendResult> sending) {
            sending.whenComplete((result, failure) -> {
                if (failure == null) {
                    succeeded(result);
                } else {
                    failed(failure instanceof CompletionException wrapped && wrapped.getCause() != null
                            ? wrapped.getCause() : failure);
                }
            });
            return sending;
        }

        @Override
        void failed(Throwable failure) {
            observation.error(failure);
            observation.stop();
        }

        @Override
        void succeeded(SendResult result) {
            context.succeeded(result);
            observation.stop();
        }
    }
}

package io.lanemq.core.internal.consume.listener;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.MessageListener;
import io.lanemq.api.ReceivedMessage;
import io.lanemq.api.Subscription;
import io.lanemq.core.observation.ConsumeContext;
import io.lanemq.core.observation.LaneMqObservations;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

/**
 * The application's listener inside a {@value LaneMqObservations#CONSUME} observation, opened as the current one
 * while it runs, so what the listener does (its sends, its HTTP calls) joins the trace the message carried. Wrapped
 * around the application's listener itself, whatever brought the message: a DIRECT consumer, the consumer proxy's
 * stream, or another lane's member forwarding it.
 */
public final class ObservedListener implements MessageListener {
    private final MessageListener listener;
    private final String group;
    private final ObservationRegistry registry;

    private ObservedListener(MessageListener listener, String group, ObservationRegistry registry) {
        this.listener = listener;
        this.group = group;
        this.registry = registry;
    }

    /** {@code listener} observed on {@code registry}; itself, at no cost per message, when the registry is a no-op. */
    public static MessageListener wrap(Subscription subscription, MessageListener listener, ObservationRegistry registry) {
        return registry.isNoop() ? listener : new ObservedListener(listener, subscription.consumerGroup(), registry);
    }

    @Override
    public ConsumeResult consume(ReceivedMessage message) {
        ConsumeContext context = new ConsumeContext(message, group);
        Observation observation = Observation.createNotStarted(null, LaneMqObservations.CONSUME_CONVENTION, () -> context,
                registry).start();
        try (Observation.Scope ignored = observation.openScope()) {
            ConsumeResult result = listener.consume(message);
            context.answered(result);
            return result;
        } catch (RuntimeException | Error e) {
            // Rethrown as it came: the consumer logs it and retries the message, as without an observation.
            observation.error(e);
            throw e;
        } finally {
            observation.stop();
        }
    }
}

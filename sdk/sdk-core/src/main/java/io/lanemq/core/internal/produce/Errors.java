package io.lanemq.core.internal.produce;

import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.api.InvalidMessageException;
import io.lanemq.api.MessagingException;
import io.lanemq.api.SendFailedException;
import java.util.concurrent.CompletionException;

/**
 * Adds the logic topic to errors coming up from a binding, which only knows physical topics, so
 * the application sees {@code [logicTopic=..., cluster=...]} on every failure.
 */
final class Errors {
    private Errors() {
    }

    static MessagingException withLogicTopic(Throwable failure, String logicTopic, String cluster) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        if (cause instanceof InvalidMessageException e) {
            return new InvalidMessageException(e.reason() + " (cluster " + cluster + ")", logicTopic);
        }
        if (cause instanceof InvalidConfigurationException e) {
            return e;
        }
        if (cause instanceof MessagingException e) {
            return new SendFailedException(e.reason(), logicTopic, cluster, e);
        }
        return new SendFailedException("unexpected failure: " + cause, logicTopic, cluster, cause);
    }
}

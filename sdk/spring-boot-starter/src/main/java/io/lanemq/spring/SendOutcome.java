package io.lanemq.spring;

import io.lanemq.api.Message;
import io.lanemq.api.SendResult;
import java.util.Objects;
import java.util.Optional;

/**
 * What became of one message of {@link LaneMqTemplate#sendBatch}: stored ({@link #result()}), or not, with the
 * reason ({@link #failure()}: the exception {@link io.lanemq.api.Producer#send} would have thrown).
 *
 * @param message the message, as it was given
 * @param result  where it was stored; empty when it failed
 * @param failure why it failed; empty when it was stored
 */
public record SendOutcome(Message message, Optional<SendResult> result, Optional<Throwable> failure) {
    public SendOutcome {
        Objects.requireNonNull(message, "message");
        if (result.isPresent() == failure.isPresent()) {
            throw new IllegalArgumentException("a send outcome has a result or a failure, not both or neither");
        }
    }

    /** Whether a broker acknowledged the message. */
    public boolean sent() {
        return result.isPresent();
    }
}

package io.lanemq.core.convert;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.ReceivedMessage;

/**
 * A listener of converted payloads; {@link MessageConversion#listener(Class, TypedMessageListener)} makes it a
 * {@link io.lanemq.api.MessageListener}. Same contract: called from SDK threads, an exception means retry later.
 *
 * @param <T> the payload type
 */
@FunctionalInterface
public interface TypedMessageListener<T> {
    ConsumeResult consume(T payload, ReceivedMessage message) throws Exception;
}

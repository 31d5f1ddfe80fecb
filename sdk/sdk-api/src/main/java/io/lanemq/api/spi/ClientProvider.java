package io.lanemq.api.spi;

import io.lanemq.api.ClientOptions;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.MessagingException;

/** Implemented by the SDK core; registered in {@code META-INF/services}. */
public interface ClientProvider {
    MessagingClient create(ClientOptions options) throws MessagingException;
}

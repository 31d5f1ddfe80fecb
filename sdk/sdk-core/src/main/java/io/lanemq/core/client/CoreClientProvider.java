package io.lanemq.core.client;

import io.lanemq.api.ClientOptions;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.MessagingException;
import io.lanemq.api.spi.ClientProvider;

/** Lets {@link MessagingClient#create(ClientOptions)} find this core through {@link java.util.ServiceLoader}. */
public final class CoreClientProvider implements ClientProvider {
    @Override
    public MessagingClient create(ClientOptions options) throws MessagingException {
        return CoreMessagingClient.start(options);
    }
}

package io.lanemq.core.internal.consume.proxy;

import java.util.Optional;

/**
 * Who this client is to the consumer proxy: the application's name and its secret token (from
 * {@code ClientOptions}, never from the platform configuration).
 */
public record ProxyIdentity(String application, Optional<String> token) {
    @Override
    public String toString() {
        return "ProxyIdentity[application=" + application + ", token=" + (token.isPresent() ? "(set)" : "none") + "]";
    }
}

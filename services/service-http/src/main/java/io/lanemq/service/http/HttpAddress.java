package io.lanemq.service.http;

import java.net.InetSocketAddress;

/** Parses the {@code HOST:PORT} form in which every service takes its operations address. */
public final class HttpAddress {
    private HttpAddress() {
    }

    /**
     * {@code 0.0.0.0:9406}, {@code 127.0.0.1:0} (any free port), {@code [::]:9406}; unresolved host names are
     * resolved at once.
     *
     * @param setting the option's name, for the message
     * @throws IllegalArgumentException naming {@code setting} and the value when it is not HOST:PORT with a port 0-65535
     */
    public static InetSocketAddress parse(String setting, String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(setting + " must be HOST:PORT, was empty");
        }
        int colon = value.lastIndexOf(':');
        if (colon <= 0 || colon == value.length() - 1) {
            throw new IllegalArgumentException(setting + " must be HOST:PORT: " + value);
        }
        String host = value.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(value.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(setting + " must be HOST:PORT with a numeric port: " + value, e);
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException(setting + " port must be 0-65535: " + value);
        }
        return new InetSocketAddress(host, port);
    }
}

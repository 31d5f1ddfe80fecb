package io.lanemq.support;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Whether any of a list of {@code host:port} addresses accepts a TCP connection: the one check the SDK and the RocketMQ
 * binding make of a cluster's name servers (a name server is the first thing back with an IDC). Thread-safe.
 */
public final class TcpReach {
    /** A name server answers a connect in a millisecond on a LAN; 500 ms tells a silent one without holding a start long. */
    public static final Duration NAME_SERVER_CONNECT_TIMEOUT = Duration.ofMillis(500);

    private TcpReach() {
    }

    /**
     * Connects to {@code addresses} ({@code host:port} separated by {@code ;}) in turn until one accepts, each within
     * {@code timeout}.
     *
     * @return empty when one accepted; else each address and why it did not ({@code a:1: Connection refused, b:2: ...})
     */
    public static Optional<String> noneAccepts(String addresses, Duration timeout) {
        List<String> failures = new ArrayList<>();
        for (String address : addresses.split(";")) {
            int colon = address.lastIndexOf(':');
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(address.substring(0, colon).strip(),
                        Integer.parseInt(address.substring(colon + 1).strip())), (int) timeout.toMillis());
                return Optional.empty();
            } catch (IOException | RuntimeException e) {
                failures.add(address.strip() + ": " + e.getMessage());
            }
        }
        return Optional.of(String.join(", ", failures));
    }
}

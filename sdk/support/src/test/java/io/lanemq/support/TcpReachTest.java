package io.lanemq.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TcpReachTest {
    private static final Duration TIMEOUT = Duration.ofMillis(500);

    @Test
    void anyAcceptingAddressIsEnoughAndNoneAcceptingNamesEachAddressAndWhy() throws Exception {
        int closed;
        try (ServerSocket gone = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = gone.getLocalPort();
        }
        try (ServerSocket open = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            assertThat(TcpReach.noneAccepts("127.0.0.1:" + closed + "; 127.0.0.1:" + open.getLocalPort(), TIMEOUT))
                    .as("the second address accepts").isEmpty();
        }
        Optional<String> why = TcpReach.noneAccepts("127.0.0.1:" + closed + ";not-a-port", TIMEOUT);
        assertThat(why).as("neither accepts").isPresent();
        assertThat(why.get()).contains("127.0.0.1:" + closed + ": ").contains("not-a-port: ");
    }
}

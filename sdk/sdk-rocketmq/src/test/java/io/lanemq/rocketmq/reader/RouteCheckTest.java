package io.lanemq.rocketmq.reader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lanemq.api.MessagingException;
import io.lanemq.api.spi.ClusterEndpoint;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The route check's bounds, against name servers that do not answer (a silent one needs a network fault: the ITs). */
class RouteCheckTest {

    @BeforeAll
    static void loadTheRemotingClientOnce() throws Exception {
        // A JVM's first check loads RocketMQ's remoting classes (seconds on a busy host); the bounds are the checks'.
        try (RouteCheck first = RouteCheck.of(endpoint("127.0.0.1:" + closedPort()))) {
            assertThatThrownBy(() -> first.require("t")).isInstanceOf(MessagingException.class);
        }
    }

    private static int closedPort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static ClusterEndpoint endpoint(String addresses) {
        return new ClusterEndpoint("cluster-x", "idc-x", addresses, Map.of());
    }

    @Test
    void aNameServerThatAcceptsButNeverAnswersFailsTheCheckWithinItsBoundNamingTopicAndCluster() throws Exception {
        List<Socket> accepted = new CopyOnWriteArrayList<>();
        try (ServerSocket mute = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        accepted.add(mute.accept());
                    }
                } catch (Exception closed) {
                    // the test is over
                }
            }, "route-check-test-mute-name-server");
            acceptor.setDaemon(true);
            acceptor.start();
            try (RouteCheck routes = RouteCheck.of(endpoint("127.0.0.1:" + mute.getLocalPort()))) {
                long begin = System.nanoTime();
                assertThatThrownBy(() -> routes.require("topic-x"))
                        .isInstanceOf(MessagingException.class)
                        .hasMessageContaining("topic-x").hasMessageContaining("cluster-x")
                        .hasMessageContaining("127.0.0.1:" + mute.getLocalPort());
                long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin);
                assertThat(tookMillis).as("a check waits for no answer longer than its bound (ms)")
                        .isGreaterThanOrEqualTo(RouteCheck.ANSWER_TIMEOUT.toMillis() / 2)
                        .isLessThan(RouteCheck.ANSWER_TIMEOUT.toMillis() + 500);
            }
        } finally {
            for (Socket socket : accepted) {
                socket.close();
            }
        }
    }

    @Test
    void everyNameServerIsAskedAndEachOneWhyIsNamed() throws Exception {
        int refusing1 = closedPort();
        int refusing2 = closedPort();
        RouteCheck routes = RouteCheck.of(endpoint("127.0.0.1:" + refusing1 + ";127.0.0.1:" + refusing2));
        long begin = System.nanoTime();
        assertThatThrownBy(() -> routes.require("t"))
                .isInstanceOf(MessagingException.class)
                .hasMessageContaining("no name server of cluster 'cluster-x' answered")
                .hasMessageContaining("127.0.0.1:" + refusing1).hasMessageContaining("127.0.0.1:" + refusing2);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin)).as("refused at once (ms)").isLessThan(1_000);
        long closing = System.nanoTime();
        routes.close();
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - closing)).as("a close waits for no shutdown (ms)")
                .isLessThan(500);
        assertThatThrownBy(() -> routes.require("t")).isInstanceOf(IllegalStateException.class);
    }
}

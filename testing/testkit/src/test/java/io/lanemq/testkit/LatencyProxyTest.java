package io.lanemq.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class LatencyProxyTest {

    private static final Duration DELAY = Duration.ofMillis(100);
    // Generous: a 2-core machine running a build can stall a thread for tens of milliseconds.
    private static final Duration MARGIN = Duration.ofMillis(400);
    private static final int READ_TIMEOUT_MILLIS = 5_000;
    /** Samples per timing bound: a bound holds for a median or a percentile, never for one sample's luck. */
    private static final int SAMPLES = 9;

    private final List<AutoCloseable> resources = new ArrayList<>();

    @AfterEach
    void closeResources() throws Exception {
        for (int i = resources.size() - 1; i >= 0; i--) {
            resources.get(i).close();
        }
    }

    @Test
    void forwardsBytesIntactAndInOrderWithAndWithoutDelay() throws Exception {
        EchoServer echo = track(EchoServer.echoing());
        LatencyProxy proxy = track(LatencyProxy.start(anyLoopbackPort(), echo.address()));
        for (Duration delay : List.of(Duration.ZERO, Duration.ofMillis(20))) {
            proxy.setDelay(delay);
            byte[] sent = new byte[2 << 20];
            new Random(delay.toMillis()).nextBytes(sent);
            Socket client = connect(proxy);

            // Writes in uneven pieces while reading: the proxy sees many chunks of all sizes in flight.
            CompletableFuture<Void> writing = CompletableFuture.runAsync(() -> writeInPieces(client, sent));
            byte[] received = client.getInputStream().readNBytes(sent.length);
            writing.get(READ_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);

            assertThat(received).as("echo through the proxy with delay %s", delay).isEqualTo(sent);
        }
    }

    @Test
    void delaysResponsesOnlyAndByTheDelay() throws Exception {
        EchoServer echo = track(EchoServer.echoing());
        LatencyProxy proxy = track(LatencyProxy.start(anyLoopbackPort(), echo.address()));
        proxy.setDelay(DELAY);
        Socket client = connect(proxy);

        List<Duration> roundTrips = new ArrayList<>();
        List<Duration> ways = new ArrayList<>();
        for (int i = 0; i < SAMPLES; i++) {
            long sentNanos = System.nanoTime();
            roundTrips.add(roundTrip(client));
            long arrivedNanos = echo.arrivalNanos().poll(READ_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
            ways.add(Duration.ofNanos(arrivedNanos - sentNanos));
        }

        // Never early, sample by sample; never much later, on the median (one thread stalled by a busy host is noise).
        assertThat(roundTrips).as("round trips").allMatch(d -> d.compareTo(DELAY) >= 0);
        assertThat(percentile(roundTrips, 50)).as("median round trip of %s", roundTrips).isLessThan(DELAY.plus(MARGIN));
        assertThat(percentile(ways, 50)).as("median of the request's way to the server, of %s", ways).isLessThan(DELAY);
    }

    @Test
    void delaysEachResponseByTheDelayInsteadOfQueueingThemBehindEachOther() throws Exception {
        EchoServer echo = track(EchoServer.echoing());
        LatencyProxy proxy = track(LatencyProxy.start(anyLoopbackPort(), echo.address()));
        proxy.setDelay(DELAY);
        Socket client = connect(proxy);
        int requests = 20;
        long[] sentNanos = new long[requests];

        CompletableFuture<long[]> arrivals = CompletableFuture.supplyAsync(() -> readArrivals(client, requests));
        OutputStream out = client.getOutputStream();
        for (int i = 0; i < requests; i++) {
            sentNanos[i] = System.nanoTime();
            out.write(i);
            // Pacing, not waiting for an outcome: each request must reach the proxy as a chunk of its own.
            LockSupport.parkNanos(Duration.ofMillis(10).toNanos());
        }
        long[] arrivedNanos = arrivals.get(READ_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);

        List<Duration> roundTrips = new ArrayList<>();
        for (int i = 0; i < requests; i++) {
            roundTrips.add(Duration.ofNanos(arrivedNanos[i] - sentNanos[i]));
        }
        assertThat(roundTrips).as("round trips").allMatch(d -> d.compareTo(DELAY) >= 0);
        // Queued behind each other, the last of 20 would come back after ~20 delays: the 90th percentile shows it.
        assertThat(percentile(roundTrips, 90)).as("90th percentile of %s", roundTrips).isLessThan(DELAY.plus(MARGIN));
    }

    @Test
    void appliesADelayChangedWhileTheConnectionIsOpen() throws Exception {
        EchoServer echo = track(EchoServer.echoing());
        LatencyProxy proxy = track(LatencyProxy.start(anyLoopbackPort(), echo.address()));
        Socket client = connect(proxy);
        assertThat(proxy.delay()).isZero();

        assertThat(medianRoundTrip(client)).isLessThan(DELAY);
        proxy.setDelay(DELAY.multipliedBy(2));
        assertThat(medianRoundTrip(client)).isGreaterThanOrEqualTo(DELAY.multipliedBy(2))
            .isLessThan(DELAY.multipliedBy(2).plus(MARGIN));
        proxy.setDelay(Duration.ZERO);
        assertThat(medianRoundTrip(client)).isLessThan(DELAY);
    }

    @Test
    void closesTheClientWhenTheTargetCloses() throws Exception {
        EchoServer hangingUp = track(EchoServer.hangingUp());
        LatencyProxy proxy = track(LatencyProxy.start(anyLoopbackPort(), hangingUp.address()));

        assertClosedByPeer(connect(proxy));
    }

    @Test
    void closesTheClientAtOnceWhenTheTargetIsUnreachable() throws Exception {
        InetSocketAddress nobody;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            nobody = (InetSocketAddress) probe.getLocalSocketAddress();
        }
        LatencyProxy proxy = track(LatencyProxy.start(anyLoopbackPort(), nobody));
        proxy.setDelay(DELAY);

        long startNanos = System.nanoTime();
        assertClosedByPeer(connect(proxy));
        assertThat(Duration.ofNanos(System.nanoTime() - startNanos)).isLessThan(Duration.ofSeconds(2));
        await().atMost(Duration.ofSeconds(2)).until(() -> proxy.openConnections() == 0);
    }

    @Test
    void closeReleasesThePortAndClosesOpenConnections() throws Exception {
        EchoServer echo = track(EchoServer.echoing());
        LatencyProxy proxy = LatencyProxy.start(anyLoopbackPort(), echo.address());
        InetSocketAddress listen = proxy.listenAddress();
        Socket client = connect(proxy);
        roundTrip(client);
        assertThat(proxy.openConnections()).isEqualTo(1);

        proxy.close();

        assertThat(proxy.openConnections()).isZero();
        assertClosedByPeer(client);
        try (ServerSocket again = new ServerSocket()) {
            again.bind(listen);
            assertThat(again.getLocalPort()).isEqualTo(listen.getPort());
        }
    }

    @Test
    void refusesConnectionsLikeADeadHostAndServesOnTheSamePortAgain() throws Exception {
        EchoServer echo = track(EchoServer.echoing());
        LatencyProxy proxy = track(LatencyProxy.start(anyLoopbackPort(), echo.address()));
        InetSocketAddress listen = proxy.listenAddress();
        Socket open = connect(proxy);
        roundTrip(open);

        proxy.refuseConnections();

        assertThat(proxy.openConnections()).isZero();
        assertClosedByPeer(open);
        assertThatThrownBy(() -> connect(proxy)).as("a connect while refusing")
            .isInstanceOf(ConnectException.class);

        proxy.acceptConnections();
        proxy.acceptConnections(); // idempotent

        assertThat(proxy.listenAddress()).isEqualTo(listen);
        assertThat(medianRoundTrip(connect(proxy))).isLessThan(DELAY);
    }

    @Test
    void rejectsABadDelayAndAPortInUse() throws Exception {
        EchoServer echo = track(EchoServer.echoing());
        LatencyProxy proxy = track(LatencyProxy.start(anyLoopbackPort(), echo.address()));

        assertThatThrownBy(() -> proxy.setDelay(Duration.ofMillis(-1))).hasMessageContaining("delay");
        assertThatThrownBy(() -> LatencyProxy.start(proxy.listenAddress(), echo.address()))
            .isInstanceOf(TestkitException.class).hasMessageContaining("Address already in use");
    }

    private <T extends AutoCloseable> T track(T resource) {
        resources.add(resource);
        return resource;
    }

    private Socket connect(LatencyProxy proxy) throws IOException {
        Socket socket = track(new Socket());
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(READ_TIMEOUT_MILLIS);
        socket.connect(proxy.listenAddress());
        return socket;
    }

    private static InetSocketAddress anyLoopbackPort() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    }

    private static Duration medianRoundTrip(Socket client) throws IOException {
        List<Duration> samples = new ArrayList<>();
        for (int i = 0; i < SAMPLES; i++) {
            samples.add(roundTrip(client));
        }
        return percentile(samples, 50);
    }

    /** The {@code p}th percentile (nearest rank) of {@code samples}. */
    private static Duration percentile(List<Duration> samples, int p) {
        List<Duration> sorted = samples.stream().sorted().toList();
        int rank = (int) Math.ceil(p / 100.0 * sorted.size());
        return sorted.get(Math.max(0, rank - 1));
    }

    private static Duration roundTrip(Socket client) throws IOException {
        long startNanos = System.nanoTime();
        client.getOutputStream().write(42);
        assertThat(client.getInputStream().read()).isEqualTo(42);
        return Duration.ofNanos(System.nanoTime() - startNanos);
    }

    private static void writeInPieces(Socket client, byte[] bytes) {
        Random random = new Random(bytes.length);
        try {
            OutputStream out = client.getOutputStream();
            for (int offset = 0; offset < bytes.length; ) {
                int length = Math.min(bytes.length - offset, 1 + random.nextInt(100_000));
                out.write(bytes, offset, length);
                offset += length;
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static long[] readArrivals(Socket client, int count) {
        long[] arrivedNanos = new long[count];
        try {
            InputStream in = client.getInputStream();
            for (int i = 0; i < count; i++) {
                assertThat(in.read()).as("response %d", i).isEqualTo(i);
                arrivedNanos[i] = System.nanoTime();
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return arrivedNanos;
    }

    /** The proxy closed the connection: end of stream, or a reset, but not a read timeout. */
    private static void assertClosedByPeer(Socket client) throws IOException {
        try {
            assertThat(client.getInputStream().read()).isEqualTo(-1);
        } catch (SocketException reset) {
            assertThat(reset.getMessage()).containsIgnoringCase("reset");
        }
    }
}

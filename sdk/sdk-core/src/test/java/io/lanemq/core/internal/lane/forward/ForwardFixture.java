package io.lanemq.core.internal.lane.forward;

import io.grpc.ManagedChannel;
import io.lanemq.testkit.tls.SelfSignedCertificate;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the forwarding tests share: the testkit's certificate for 127.0.0.1, the token, servers and
 * clients the test closes in one place, and messages with every field set.
 */
final class ForwardFixture implements AutoCloseable {
    static final String TOKEN = "lane-forward-test-token-0123456789";
    static final SelfSignedCertificate CERTIFICATE = SelfSignedCertificate.shared();

    final MeterRegistry serverMeters = new SimpleMeterRegistry();
    final MeterRegistry clientMeters = new SimpleMeterRegistry();
    private final List<AutoCloseable> started = new ArrayList<>();
    private static final AtomicLong sequence = new AtomicLong();

    static ForwardServerOptions.Builder serverSettings() {
        return ForwardServerOptions.builder(CERTIFICATE.certificatePem(), CERTIFICATE.privateKeyPem(), TOKEN)
                .host("127.0.0.1")
                .shutdownGrace(Duration.ofSeconds(5));
    }

    static ForwardClientOptions.Builder clientSettings() {
        return ForwardClientOptions.builder(CERTIFICATE.certificatePem(), TOKEN).callDeadline(Duration.ofSeconds(20));
    }

    LaneForwardServer server(ForwardServerOptions settings, LaneForwardHandler handler) throws IOException {
        return remember(LaneForwardServer.start(settings, handler, serverMeters));
    }

    LaneForwardServer server(LaneForwardHandler handler) throws IOException {
        return server(serverSettings().build(), handler);
    }

    LaneForwardClient client(ForwardClientOptions settings) {
        return remember(new LaneForwardClient(settings, clientMeters));
    }

    LaneForwardClient client() {
        return client(clientSettings().build());
    }

    /** A raw channel (a client that is not a {@link LaneForwardClient}), shut down with the fixture. */
    ManagedChannel channel(ManagedChannel channel) {
        started.add(channel::shutdownNow);
        return channel;
    }

    <T extends AutoCloseable> T remember(T closeable) {
        started.add(closeable);
        return closeable;
    }

    double rejected(String reason) {
        var counter = serverMeters.find(LaneForwardMetrics.REJECTED).tag(LaneForwardMetrics.TAG_REASON, reason).counter();
        return counter == null ? 0 : counter.count();
    }

    double served(String group, String result) {
        var counter = serverMeters.find(LaneForwardMetrics.SERVED).tags(LaneForwardMetrics.TAG_GROUP, group,
                LaneForwardMetrics.TAG_RESULT, result).counter();
        return counter == null ? 0 : counter.count();
    }

    long calls(String group, String outcome) {
        var timer = clientMeters.find(LaneForwardMetrics.CALLS).tags(LaneForwardMetrics.TAG_GROUP, group,
                LaneForwardMetrics.TAG_OUTCOME, outcome).timer();
        return timer == null ? 0 : timer.count();
    }

    /** A message with every field set, each to a value no other field has. */
    static ForwardedMessage fullMessage() {
        long n = sequence.incrementAndGet();
        return new ForwardedMessage("7F0000010001" + n, "order-paid", new byte[] {0, 1, 2, (byte) 0xff, 42},
                List.of("order-42", "customer-7"), Optional.of("paid"),
                Map.of("lane", "A.X", "trace-id", "abc", "empty", ""), Optional.of("customer-7"), "cluster-b",
                "order_paid_b", 3, 123_456_789_012L + n, 4, 1_700_000_000_123L);
    }

    /** A message with no tag, no sharding key, no keys and no properties. */
    static ForwardedMessage bareMessage() {
        return new ForwardedMessage("bare-" + sequence.incrementAndGet(), "order-paid", new byte[] {1}, List.of(),
                Optional.empty(), Map.of(), Optional.empty(), "cluster-a", "order_paid", 0, 0, 1, 0);
    }

    @Override
    public void close() throws Exception {
        for (int i = started.size() - 1; i >= 0; i--) {
            started.get(i).close();
        }
        serverMeters.close();
        clientMeters.close();
    }
}

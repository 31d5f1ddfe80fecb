package io.lanemq.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.grpc.Metadata;
import io.grpc.Status;
import io.lanemq.localstack.LocalPlatform;
import io.lanemq.proxy.protocol.Ack;
import io.lanemq.proxy.protocol.ConsumeRequest;
import io.lanemq.proxy.protocol.ProxyHeaders;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * Calls without valid credentials get UNAUTHENTICATED and nothing else; malformed and misdirected
 * frames get a clear status; meanwhile a well-behaved consumer keeps receiving.
 */
@Execution(ExecutionMode.CONCURRENT) // waits on its own topic and group: see junit-platform.properties
class SecurityAndBadInputIT {
    private String group;
    private LocalPlatform platform;
    private ConsumerProxyServer proxy;
    private TestConsumer healthy;

    @BeforeEach
    void start() throws Exception {
        group = LocalPlatform.unique("proxy-security");
        platform = ProxyHarness.platform().addTopic("proxy-security", 2, 50, 50, group);
        proxy = ConsumerProxyServer.start(ProxyHarness.config(platform, b -> b));
        healthy = ProxyHarness.consumer(proxy, "healthy", d -> true).subscribe(ProxyHarness.APPLICATION, group, "proxy-security", 32);
        ProxyHarness.send(platform, "proxy-security", 5, i -> null);
        await().atMost(Duration.ofSeconds(60)).until(() -> healthy.acked.size() == 5);
    }

    @AfterEach
    void stop() throws Exception {
        healthy.close();
        proxy.close();
        platform.close();
    }

    @Test
    void callsWithoutValidCredentialsAreRefusedWithUnauthenticatedAndNothingElse() throws Exception {
        Metadata wrongToken = ProxyHeaders.credentials(ProxyHarness.APPLICATION, "not-the-token-at-all");
        Metadata unknownApplication = ProxyHeaders.credentials("someone-else", ProxyHarness.TOKEN);
        Metadata noToken = new Metadata();
        noToken.put(ProxyHeaders.APPLICATION, ProxyHarness.APPLICATION);
        for (Metadata headers : new Metadata[] {new Metadata(), noToken, wrongToken, unknownApplication}) {
            try (TestConsumer intruder = TestConsumer.withHeaders("intruder", proxy.grpcAddress(), headers)
                    .subscribe(ProxyHarness.APPLICATION, group, "proxy-security", 100)) {
                await().atMost(Duration.ofSeconds(10)).until(() -> intruder.ended.get() != null);
                assertThat(intruder.ended.get().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
                assertThat(intruder.subscribed.get()).isNull();
                assertThat(intruder.deliveries).isEmpty();
                assertThat(intruder.statuses).isEmpty();
            }
        }
        assertThat(proxy.meters().counter(ProxyMetrics.REFUSED_CALLS, "code", "UNAUTHENTICATED").count()).isEqualTo(4);
        assertStillServing(5);
    }

    @Test
    void malformedAndMisdirectedFramesGetAClearStatusAndTheProxyKeepsServing() throws Exception {
        // Bytes that are not a protobuf message at all.
        Status garbage = rawCall(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, 0x01, 0x02});
        assertThat(garbage.getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
        assertThat(garbage.getDescription()).startsWith("not a ConsumeRequest: ");

        assertThat(terminalStatusOf(c -> c.subscribe(ProxyHarness.APPLICATION, group, "no-such-topic", 1)))
                .satisfies(s -> assertThat(s.getCode()).isEqualTo(Status.Code.NOT_FOUND))
                .satisfies(s -> assertThat(s.getDescription()).contains("unknown logic topic 'no-such-topic'"));
        assertThat(terminalStatusOf(c -> c.subscribe(ProxyHarness.APPLICATION, "no-such-group", "proxy-security", 1)))
                .satisfies(s -> assertThat(s.getCode()).isEqualTo(Status.Code.NOT_FOUND))
                .satisfies(s -> assertThat(s.getDescription()).contains("consumer group 'no-such-group' is not declared"));
        assertThat(terminalStatusOf(c -> c.subscribe("another-app", group, "proxy-security", 1)).getCode())
                .isEqualTo(Status.Code.PERMISSION_DENIED);
        assertThat(terminalStatusOf(c -> c.send(ConsumeRequest.newBuilder().setAck(Ack.newBuilder().addDeliveryIds(1)).build())))
                .satisfies(s -> assertThat(s.getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT))
                .satisfies(s -> assertThat(s.getDescription()).contains("the first frame must be a Subscribe"));

        // Non-terminal: an empty frame, an ack for an unknown delivery, a second Subscribe; the stream goes on.
        try (TestConsumer sloppy = ProxyHarness.consumer(proxy, "sloppy", d -> true)
                .subscribe(ProxyHarness.APPLICATION, group, "proxy-security", 0)) {
            sloppy.send(ConsumeRequest.getDefaultInstance());
            sloppy.send(ConsumeRequest.newBuilder().setAck(Ack.newBuilder().addDeliveryIds(987_654_321L)).build());
            sloppy.subscribe(ProxyHarness.APPLICATION, group, "proxy-security", 1);
            await().atMost(Duration.ofSeconds(10)).until(() -> sloppy.statuses.size() == 3);
            assertThat(sloppy.statuses).extracting(io.lanemq.proxy.protocol.Status::getCode).containsExactly(
                    io.lanemq.proxy.protocol.Status.Code.MALFORMED_FRAME,
                    io.lanemq.proxy.protocol.Status.Code.UNKNOWN_DELIVERY,
                    io.lanemq.proxy.protocol.Status.Code.ALREADY_SUBSCRIBED);
            assertThat(sloppy.statuses.get(1).getDeliveryId()).isEqualTo(987_654_321L);
            assertThat(sloppy.ended.get()).isNull();
            sloppy.grant(1000);
            int before = healthy.acked.size() + sloppy.acked.size();
            ProxyHarness.send(platform, "proxy-security", 20, i -> null);
            await().atMost(Duration.ofSeconds(30)).until(() -> healthy.acked.size() + sloppy.acked.size() == before + 20);
            assertThat(sloppy.acked).as("the sloppy stream still gets its share").isNotEmpty();
        }
        assertThat(proxy.meters().counter(ProxyMetrics.DROPPED_FRAMES, "reason", "UNKNOWN_DELIVERY").count()).isEqualTo(1);
        assertStillServing(5);
        assertStillHealthyWithMeters();
    }

    private Status terminalStatusOf(java.util.function.Consumer<TestConsumer> action) throws Exception {
        try (TestConsumer consumer = ProxyHarness.consumer(proxy, "bad", d -> true)) {
            action.accept(consumer);
            await().atMost(Duration.ofSeconds(30)).until(() -> consumer.ended.get() != null);
            assertThat(consumer.deliveries).isEmpty();
            return consumer.ended.get();
        }
    }

    private void assertStillServing(int count) throws Exception {
        int before = healthy.acked.size();
        ProxyHarness.send(platform, "proxy-security", count, i -> null);
        await().atMost(Duration.ofSeconds(30)).until(() -> healthy.acked.size() >= before + count);
    }

    /** The HTTP endpoints themselves are the Boot application's (ConsumerProxyApplicationIT). */
    private void assertStillHealthyWithMeters() {
        assertThat(proxy.serving()).isTrue();
        assertThat(proxy.meters().find(ProxyMetrics.DELIVERIES).tag("consumer", "healthy").counter()).isNotNull();
        assertThat(proxy.meters().find(ProxyMetrics.IN_FLIGHT).gauges()).isNotEmpty();
    }

    /** One Consume call sending raw bytes (valid credentials, invalid message); returns how it ended. */

    private Status rawCall(byte[] bytes) throws Exception {
        return ProxyHarness.rawCall(proxy, bytes);
    }
}

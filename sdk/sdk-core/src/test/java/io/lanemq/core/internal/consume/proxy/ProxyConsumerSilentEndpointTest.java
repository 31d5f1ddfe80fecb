package io.lanemq.core.internal.consume.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.Subscription;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.support.Ticker;
import io.lanemq.testkit.tls.SelfSignedCertificate;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A PROXY-mode subscription started while one consumer proxy of its list is silent (issue 28): the start returns at
 * once, and a proxy that does not answer Subscribe is given up for the next within {@link
 * ProxyConsumer#SUBSCRIBE_ANSWER_WITHIN}, instead of gRPC's 10 s TLS handshake or 20 s connect timeout. The silent
 * proxies are sockets the kernel accepts connections on and nobody ever reads.
 */
class ProxyConsumerSilentEndpointTest {
    @Test
    void aProxyThatDoesNotAnswerSubscribeIsGivenUpForTheNextWithinTheAnswerWait() throws Exception {
        try (ServerSocket silentA = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
             ServerSocket silentB = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            ProxyConsumerSpec spec = new ProxyConsumerSpec(Subscription.builder("orders", "billing").build(), 1,
                    List.of("127.0.0.1:" + silentA.getLocalPort(), "127.0.0.1:" + silentB.getLocalPort()),
                    SelfSignedCertificate.shared().certificatePem(), "app", "proxy-silent-endpoint-token-0123456789", "");

            long startedAt = System.nanoTime();
            try (ProxyConsumer consumer = ProxyConsumer.start(spec, message -> ConsumeResult.SUCCESS,
                    new SdkMetrics(registry, "test"), Ticker.system())) {
                assertThat(Duration.ofNanos(System.nanoTime() - startedAt)).as("the start waits for no proxy (a cold JVM loads gRPC here)")
                        .isLessThan(Duration.ofSeconds(2));

                // Two streams given up: each endpoint was tried and left for the other, with no stream ending by itself.
                await().atMost(ProxyConsumer.SUBSCRIBE_ANSWER_WITHIN.multipliedBy(2).plusSeconds(3))
                        .until(() -> ends(registry, "CANCELLED") >= 2);
                Duration tookForTwo = Duration.ofNanos(System.nanoTime() - startedAt);
                System.out.printf("PROXY mode, every proxy silent: two endpoints given up in %d ms%n", tookForTwo.toMillis());
                assertThat(ends(registry, "UNAVAILABLE")).as("gRPC's own timeouts never came into it").isZero();
            }
        }
    }

    private static double ends(SimpleMeterRegistry registry, String status) {
        Counter counter = registry.find(SdkMetrics.PROXY_STREAM_ENDS).tag(SdkMetrics.TAG_STATUS, status).counter();
        return counter == null ? 0 : counter.count();
    }
}

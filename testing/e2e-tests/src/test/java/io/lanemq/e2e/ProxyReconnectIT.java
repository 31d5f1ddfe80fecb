package io.lanemq.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.Consumer;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.api.Subscription;
import io.lanemq.config.ConsumptionMode;
import io.lanemq.config.ConsumerProxyConfig;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.localstack.LocalPlatform;
import io.lanemq.testkit.RocketMqStack;
import io.lanemq.testkit.tls.SelfSignedCertificate;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * A PROXY-mode consumer whose proxy instance stops: its stream ends, it reconnects to the next
 * configured endpoint after a backoff and goes on consuming; every message sent before and after is
 * consumed.
 *
 * <p>Alone: it judges that the first endpoint is tried first, which a subscribe left unanswered for its 3 s timeout
 * on a busy host (the first proxy's group starting beside other stacks' starts) would move to the second.
 */
@Isolated
class ProxyReconnectIT {
    @RegisterExtension
    static final GlobalMeters METRICS = new GlobalMeters();

    @Test
    void whenItsProxyStopsTheConsumerReconnectsToTheOtherEndpointAndLosesNothing() throws Exception {
        String group = LocalPlatform.unique("proxy-reconnect");
        LocalPlatform platform = LocalPlatform.on(RocketMqStack.shared()).addTopic("coupon", 4, 50, 50, group);
        Received received = new Received();
        try (ProxyFixture first = ProxyFixture.start(platform);
             ProxyFixture second = ProxyFixture.start(platform)) {
            platform.proxy(new ConsumerProxyConfig(List.of(first.endpoint(), second.endpoint()), SelfSignedCertificate.shared().certificatePem()))
                    .consumerMode("coupon", group, ConsumptionMode.PROXY);
            try (MessagingClient client = first.client(ProxyFixture.TOKEN);
                 Producer producer = client.createProducer(ProducerOptions.defaults());
                 Consumer consumer = client.subscribe(Subscription.builder("coupon", group).build(), received)) {
                Set<String> before = ProxyModeIT.sendAll(producer, "coupon", 500);
                await().atMost(Duration.ofSeconds(60)).until(() -> received.deliveriesById.keySet().containsAll(before));
                assertThat(first.deliveries()).as("the first endpoint is tried first").isPositive();

                long stopped = System.nanoTime();
                first.close();
                await().atMost(Duration.ofSeconds(30)).until(() -> second.consumers() > 0
                        && METRICS.gauge(SdkMetrics.PROXY_CONNECTED, group) == 1);
                long reconnectMs = (System.nanoTime() - stopped) / 1_000_000;
                assertThat(METRICS.proxyStreamEnds(group).values().stream().mapToDouble(Double::doubleValue).sum())
                        .as("the stream to the stopped proxy ended and was counted").isPositive();
                Set<String> after = ProxyModeIT.sendAll(producer, "coupon", 500);
                await().atMost(Duration.ofSeconds(60)).until(() -> received.deliveriesById.keySet().containsAll(after));
                System.out.printf("ProxyReconnectIT: reconnected to the second proxy %d ms after the first stopped;"
                        + " 1,000 messages consumed, %d duplicates%n", reconnectMs, received.duplicates());
                assertThat(received.deliveriesById.keySet()).containsAll(before);
            }
        } finally {
            platform.close();
        }
    }
}

package io.lanemq.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.Consumer;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.api.Subscription;
import io.lanemq.core.client.CoreMessagingClient;
import io.lanemq.config.ConsumptionMode;
import io.lanemq.config.ConsumerProxyConfig;
import io.lanemq.localstack.LocalPlatform;
import io.lanemq.localstack.SendStream;
import io.lanemq.testkit.RocketMqStack;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * A group's consumption mode switched DIRECT -> PROXY -> DIRECT in the watched configuration file
 * while a steady stream of sends runs: the running subscription moves in place, without a restart,
 * and every acknowledged message is consumed at least once. A switch the running client cannot follow
 * (no proxy token, an unreadable CA certificate) is rejected as a whole and DIRECT consumption goes on.
 *
 * <p>The way back needs the proxy to stop fetching a group whose last consumer left (after a short
 * grace) and commit: otherwise its RocketMQ consumer keeps a share of the group's queues, and what it
 * fetched from them never reaches the DIRECT consumers.
 *
 * <p>It judges what is consumed and that no send fails (a send that fails over still succeeds), with deadlines only,
 * on its own topic, group and proxies: it may run beside another concurrent class.
 */
@Execution(ExecutionMode.CONCURRENT)
class ProxyHotSwitchIT {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    @RegisterExtension
    static final GlobalMeters METRICS = new GlobalMeters();

    @Test
    void switchingDirectToProxyAndBackUnderASteadySendStreamLosesNothing() throws Exception {
        String group = LocalPlatform.unique("proxy-switch");
        LocalPlatform platform = LocalPlatform.on(RocketMqStack.shared()).addTopic("ledger", 4, 50, 50, group);
        Received received = new Received();
        try (ProxyFixture proxy = ProxyFixture.start(platform);
             MessagingClient client = proxy.client(ProxyFixture.TOKEN);
             Producer producer = client.createProducer(ProducerOptions.defaults());
             Consumer consumer = client.subscribe(Subscription.builder("ledger", group).build(), received);
             SendStream stream = new SendStream(producer, "ledger", 200)) {
            assertThat(METRICS.consumesIn(group, ConsumptionMode.DIRECT)).as("the configured mode").isTrue();
            await().atMost(Duration.ofSeconds(30)).until(() -> stream.nowNanos() > 3 * SECOND && received.distinct() > 0);

            long toProxy = switchTo(platform, group, ConsumptionMode.PROXY);
            double pushedBefore = proxy.deliveries();
            await().atMost(Duration.ofSeconds(30)).until(() -> proxy.deliveries() > pushedBefore + 200);
            System.out.printf("ProxyHotSwitchIT: DIRECT -> PROXY applied %d ms after the file was written%n", toProxy);
            await().atMost(Duration.ofSeconds(30)).until(() -> stream.nowNanos() > 8 * SECOND);

            long toDirect = switchTo(platform, group, ConsumptionMode.DIRECT);
            System.out.printf("ProxyHotSwitchIT: PROXY -> DIRECT applied %d ms after the file was written%n", toDirect);
            long backAt = stream.nowNanos();
            await().atMost(Duration.ofSeconds(30)).until(() -> stream.nowNanos() > backAt + 4 * SECOND);

            stream.close();
            await().atMost(Duration.ofSeconds(30)).until(stream::settled);
            assertThat(SendStream.successRate(stream.all())).isEqualTo(1.0);
            Set<String> acknowledged = stream.acknowledgedIds();
            try {
                await().atMost(Duration.ofSeconds(90)).until(() -> received.deliveriesById.keySet().containsAll(acknowledged));
            } catch (ConditionTimeoutException e) {
                long missing = acknowledged.stream().filter(id -> !received.deliveriesById.containsKey(id)).count();
                throw new AssertionError(missing + " of " + acknowledged.size() + " acknowledged messages were never consumed"
                        + " after the switch back to DIRECT; the proxy must stop fetching and leave the group once its last"
                        + " consumer of the group is gone, or its share of the queues is never consumed", e);
            }
            System.out.printf("ProxyHotSwitchIT: %d acknowledged sends, all consumed; %d duplicates; %.0f pushed by the proxy%n",
                    acknowledged.size(), received.duplicates(), proxy.deliveries());
        } finally {
            platform.close();
        }
    }

    @Test
    void aSwitchToProxyIsRejectedWhileTheClientHasNoProxyTokenAndDirectConsumptionGoesOn() throws Exception {
        String group = LocalPlatform.unique("proxy-notoken");
        LocalPlatform platform = LocalPlatform.on(RocketMqStack.shared()).addTopic("ledger", 2, 50, 50, group);
        Received received = new Received();
        try (MessagingClient client = platform.client("no-token-app");
             Producer producer = client.createProducer(ProducerOptions.defaults());
             Consumer consumer = client.subscribe(Subscription.builder("ledger", group).build(), received)) {
            CoreMessagingClient core = (CoreMessagingClient) client;
            platform.proxy(new ConsumerProxyConfig(List.of("127.0.0.1:7443"), Path.of("/etc/lanemq/proxy-ca.pem")))
                    .consumerMode("ledger", group, ConsumptionMode.PROXY).writeConfig();

            await().atMost(Duration.ofSeconds(10)).until(() -> core.lastReloadRejection().isPresent());
            assertThat(core.lastReloadRejection().orElseThrow().getMessage())
                    .contains("consumer group '" + group + "'", "PROXY mode", "ClientOptions.proxyToken");
            assertThat(METRICS.consumesIn(group, ConsumptionMode.DIRECT)).as("a rejected change moves nothing").isTrue();
            Set<String> sent = ProxyModeIT.sendAll(producer, "ledger", 20);
            await().atMost(Duration.ofSeconds(60)).until(() -> received.deliveriesById.keySet().containsAll(sent));
        } finally {
            platform.close();
        }
    }

    @Test
    void aSwitchToProxyNamingAMissingCaCertificateIsRejectedAndDirectConsumptionGoesOn() throws Exception {
        String group = LocalPlatform.unique("proxy-noca");
        LocalPlatform platform = LocalPlatform.on(RocketMqStack.shared()).addTopic("ledger", 2, 50, 50, group);
        Received received = new Received();
        try (ProxyFixture proxy = ProxyFixture.start(platform);
             MessagingClient client = proxy.client(ProxyFixture.TOKEN);
             Producer producer = client.createProducer(ProducerOptions.defaults());
             Consumer consumer = client.subscribe(Subscription.builder("ledger", group).build(), received)) {
            CoreMessagingClient core = (CoreMessagingClient) client;
            platform.proxy(new ConsumerProxyConfig(List.of(proxy.endpoint()), Path.of("/nonexistent/proxy-ca.pem")))
                    .consumerMode("ledger", group, ConsumptionMode.PROXY).writeConfig();

            await().atMost(Duration.ofSeconds(10)).until(() -> core.lastReloadRejection().isPresent());
            assertThat(core.lastReloadRejection().orElseThrow().getMessage())
                    .contains("proxy.caCertificate", "/nonexistent/proxy-ca.pem", "not a readable file");
            assertThat(METRICS.consumesIn(group, ConsumptionMode.DIRECT)).as("a rejected change moves nothing").isTrue();
            Set<String> sent = ProxyModeIT.sendAll(producer, "ledger", 20);
            await().atMost(Duration.ofSeconds(60)).until(() -> received.deliveriesById.keySet().containsAll(sent));
        } finally {
            platform.close();
        }
    }

    /** Writes the mode into the watched file; returns how long the running consumer took to follow, in ms. */
    private static long switchTo(LocalPlatform platform, String group, ConsumptionMode mode) {
        long start = System.nanoTime();
        platform.consumerMode("ledger", group, mode).writeConfig();
        await().atMost(Duration.ofSeconds(20)).until(() -> METRICS.consumesIn(group, mode));
        return (System.nanoTime() - start) / 1_000_000;
    }
}

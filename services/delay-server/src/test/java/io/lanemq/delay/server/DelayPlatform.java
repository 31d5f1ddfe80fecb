package io.lanemq.delay.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.ClientOptions;
import io.lanemq.api.Consumer;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.api.Subscription;
import io.lanemq.core.client.CoreMessagingClient;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.localstack.LocalPlatform;
import io.lanemq.testkit.RocketMqStack;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * A platform of its own on the shared stack for one test: its own internal delay topic and
 * server group, a logic topic {@value #TOPIC} on both clusters, an SDK producer and a consumer
 * recording {@link Arrivals}. Closes what it started.
 */
final class DelayPlatform implements AutoCloseable {

    static final String TOPIC = "reminders";

    final LocalPlatform platform;
    final Path config;
    final Arrivals arrivals = new Arrivals();
    /** The SDK metrics of the test's client: its producer's retried attempts bound the copies it may have stored. */
    final MeterRegistry clientMetrics = new SimpleMeterRegistry();
    final MessagingClient client;
    final Producer producer;
    private final Consumer consumer;

    DelayPlatform() throws Exception {
        this(() -> { });
    }

    /** @param beforeClients runs once the topics exist, before the client starts (to start it during a fault, say) */
    DelayPlatform(Runnable beforeClients) throws Exception {
        String group = LocalPlatform.unique("checker");
        platform = LocalPlatform.on(RocketMqStack.shared()).enableDelay().addTopic(TOPIC, 4, 50, 50, group);
        config = platform.writeConfig();
        beforeClients.run();
        client = CoreMessagingClient.start(ClientOptions.builder("delay-it").configLocation(config.toString()).build(),
                clientMetrics);
        producer = client.createProducer(ProducerOptions.defaults());
        consumer = client.subscribe(Subscription.builder(TOPIC, group).build(), arrivals);
    }

    /** An in-process server on this platform. */
    DelayServer startServer(Path storeDir, UnaryOperator<DelayServerOptions.Builder> tweak) throws Exception {
        return DelayServer.start(tweak.apply(DelayServerOptions.builder("file:" + config, storeDir)
                .metricsPort(0).reenqueueAfter(Duration.ofMinutes(10))).build());
    }

    /** Waits until a message due now has gone through a server and arrived: the whole path is up. */
    void warmUp() throws Exception {
        List<DelayedSender.Sent> sent = DelayedSender.send(producer, TOPIC, "warm-up", 1, 0, 1);
        await().atMost(Duration.ofSeconds(90)).until(() -> arrivals.countByKey.containsKey(sent.get(0).key()));
        arrivals.ignore("warm-up");
        arrivals.countByKey.clear();
        arrivals.all.clear();
    }

    /** Waits until the consumer has read every copy the brokers stored on the topic (see {@link Arrivals#awaitEveryStoredCopy}). */
    void awaitEveryStoredCopy() {
        String physical = platform.physicalTopic(TOPIC);
        arrivals.awaitEveryStoredCopy(() -> RocketMqStack.shared().storedMessages(physical));
    }

    /**
     * Copies of SCHEDULE and CANCEL messages the brokers stored on this platform's internal delay topic. A delayed send
     * whose attempt on one cluster was given up on (slow to answer) and then stored there anyway leaves a copy on
     * each cluster, and each cluster's server side holds its own: so a test that counts what the server holds counts
     * copies, not sends.
     */
    long internalCopies() {
        return RocketMqStack.shared().storedMessages(platform.delaySettings().internalTopic());
    }

    /**
     * The logic-topic copies beyond the first that the SDK's design allows in this test: each attempt the test's
     * producer or the server's retried elsewhere (given up on, then stored anyway) may store one more copy, and each
     * delivery the server saw fail (a timeout, then stored anyway) is sent again.
     */
    long copiesAllowedBeyondOne(DelayServer server) {
        return failovers(clientMetrics) + failovers(server.registry()) + (long) server.registry()
                .find(DelayServerMetrics.DELIVERIES).tag(DelayServerMetrics.TAG_OUTCOME, "failed").counters().stream()
                .mapToDouble(Counter::count).sum();
    }

    /** Asserts that every delivery beyond a key's first is one the SDK's design allows (see {@link #copiesAllowedBeyondOne}). */
    void assertEveryDuplicateIsARetriedSend(DelayServer server) {
        long allowed = copiesAllowedBeyondOne(server);
        assertThat(arrivals.duplicates()).as("deliveries beyond the first, each allowed only by a send retried elsewhere or "
                + "failed and sent again (%d of them)", allowed).isLessThanOrEqualTo(allowed);
    }

    private static long failovers(MeterRegistry registry) {
        return (long) registry.find(SdkMetrics.FAILOVERS).counters().stream().mapToDouble(Counter::count).sum();
    }

    @Override
    public void close() {
        consumer.close();
        producer.close();
        client.close();
        platform.close();
    }
}

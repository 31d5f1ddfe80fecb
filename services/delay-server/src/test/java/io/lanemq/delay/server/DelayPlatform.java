package io.lanemq.delay.server;

import static org.awaitility.Awaitility.await;

import io.lanemq.api.Consumer;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.api.Subscription;
import io.lanemq.localstack.LocalPlatform;
import io.lanemq.testkit.RocketMqStack;
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
        client = platform.client("delay-it");
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

    @Override
    public void close() {
        consumer.close();
        producer.close();
        client.close();
        platform.close();
    }
}

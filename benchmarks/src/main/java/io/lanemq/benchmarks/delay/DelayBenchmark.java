package io.lanemq.benchmarks.delay;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.Consumer;
import io.lanemq.api.Message;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.api.Subscription;
import io.lanemq.delay.server.DelayServer;
import io.lanemq.delay.server.DelayServerSettings;
import io.lanemq.localstack.LocalPlatform;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.MessageExt;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * P4: delivery error (consume time minus due time) of LaneMQ's delay server against RocketMQ 5's
 * native timer messages ({@code setDeliverTimeMs}), in the same run, at the same rate, with the
 * same spread of delays, on one local stack. Ours goes SDK send, internal topic, delay server,
 * SDK send, SDK consumer; the native baseline goes raw producer, broker timer wheel, raw consumer.
 */
@Command(name = "delay", mixinStandardHelpOptions = true,
        description = "P4: delay server vs RocketMQ native timer messages, delivery error p50/p99/max at the same rate "
                + "(target: ours p99 <= 10 ms).")
public final class DelayBenchmark implements Callable<Integer> {

    private static final String TOPIC = "bench-delay";
    private static final String DUE_AT = "due-at";

    /** The SDK's send timeout on the local platform; the raw producer gets the same. */
    private static final long SEND_TIMEOUT_MS = 5_000;

    private final DeliveryErrors ours = new DeliveryErrors("delay server");
    private final DeliveryErrors native_ = new DeliveryErrors("native timer");

    @Option(names = "--rate", defaultValue = "1000", description = "Messages per second of each kind (default: ${DEFAULT-VALUE}).")
    int rate;

    @Option(names = "--seconds", defaultValue = "30", description = "How long to send (default: ${DEFAULT-VALUE}).")
    int seconds;

    @Option(names = "--min-delay-ms", defaultValue = "1000", description = "Shortest delay (default: ${DEFAULT-VALUE}).")
    long minDelayMs;

    @Option(names = "--max-delay-ms", defaultValue = "10000", description = "Longest delay (default: ${DEFAULT-VALUE}).")
    long maxDelayMs;

    @Override
    public Integer call() throws Exception {
        Path store = Files.createTempDirectory("lanemq-delay-bench");
        String group = LocalPlatform.unique("bench-delay-check");
        try (LocalPlatform platform = LocalPlatform.start()) {
            platform.enableDelay().addTopic(TOPIC, 8, 50, 50, group);
            String timerTopic = LocalPlatform.unique("bench-timer");
            platform.stack().createTopic(timerTopic, 8);
            DelayServerSettings settings = DelayServerSettings.builder("file:" + platform.writeConfig(), store)
                    .metricsPort(-1).build();
            DefaultMQProducer raw = new DefaultMQProducer(LocalPlatform.unique("bench-timer-producer"));
            DefaultMQPushConsumer rawConsumer = new DefaultMQPushConsumer(LocalPlatform.unique("bench-timer-check"));
            try (DelayServer server = DelayServer.start(settings);
                 MessagingClient client = platform.client("bench-delay");
                 Producer producer = client.createProducer(ProducerOptions.defaults());
                 Consumer consumer = client.subscribe(Subscription.builder(TOPIC, group).build(), m -> {
                     ours.arrived(m.keys().get(0), Long.parseLong(m.properties().get(DUE_AT)), System.currentTimeMillis());
                     return ConsumeResult.SUCCESS;
                 })) {
                String nameServer = platform.idcA().nameServerAddress();
                raw.setNamesrvAddr(nameServer);
                raw.setInstanceName("bench-timer-producer");
                raw.start();
                rawConsumer.setNamesrvAddr(nameServer);
                rawConsumer.setInstanceName("bench-timer-consumer");
                rawConsumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
                rawConsumer.subscribe(timerTopic, "*");
                rawConsumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
                    long now = System.currentTimeMillis();
                    for (MessageExt m : messages) {
                        native_.arrived(m.getKeys(), Long.parseLong(m.getUserProperty(DUE_AT)), now);
                    }
                    return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
                });
                rawConsumer.start();
                warmUp(producer, raw, timerTopic);
                int total = rate * seconds;
                System.out.printf("P4: %d msgs/s of each kind for %d s, delays %d-%d ms%n", rate, seconds, minDelayMs,
                        maxDelayMs);
                long began = System.nanoTime();
                send(producer, raw, timerTopic, total);
                System.out.printf("  sent in %.1f s%n", (System.nanoTime() - began) / 1e9);
                long deadline = System.currentTimeMillis() + maxDelayMs + 120_000;
                while ((ours.distinct() < total || native_.distinct() < total) && System.currentTimeMillis() < deadline) {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200)); // a benchmark's wait, not a test's
                }
                System.out.println("  " + ours.summary(total));
                System.out.println("  " + native_.summary(total));
                double oursP99 = ours.percentile(99);
                double nativeP99 = native_.percentile(99);
                boolean met = oursP99 <= 10 && ours.distinct() == total;
                System.out.printf("RESULT P4 rate=%d ours_p50_ms=%.0f ours_p99_ms=%.0f native_p50_ms=%.0f native_p99_ms=%.0f "
                                + "ratio_p99=%.3f target ours p99<=10 %s%n", rate, ours.percentile(50), oursP99,
                        native_.percentile(50), nativeP99, nativeP99 == 0 ? 0 : oursP99 / nativeP99, met ? "MET" : "MISSED");
                return met ? 0 : 1;
            } finally {
                rawConsumer.shutdown();
                raw.shutdown();
            }
        } finally {
            try (Stream<Path> files = Files.walk(store)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    /** One of each, waited for, so both consumers are in place before the measured run. */
    private void warmUp(Producer producer, DefaultMQProducer raw, String timerTopic) throws Exception {
        long due = System.currentTimeMillis() + 1_000;
        producer.send(ours("warm-up", due));
        raw.send(timer(timerTopic, "warm-up", due));
        long deadline = System.currentTimeMillis() + 120_000;
        ours.startRecording();
        native_.startRecording();
        while ((ours.distinct() < 1 || native_.distinct() < 1) && System.currentTimeMillis() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
        if (ours.distinct() < 1 || native_.distinct() < 1) {
            throw new IllegalStateException("warm-up messages did not arrive within 120 s");
        }
        ours.reset();
        native_.reset();
    }

    /** Paced: the i-th message of each kind is sent at start + i / rate, both kinds at once. */
    private void send(Producer producer, DefaultMQProducer raw, String timerTopic, int total) throws Exception {
        SendCallback countFailures = new SendCallback() {
            @Override
            public void onSuccess(SendResult result) {
            }

            @Override
            public void onException(Throwable e) {
                native_.sendFailed(e);
            }
        };
        long start = System.nanoTime();
        long intervalNanos = 1_000_000_000L / rate;
        for (int i = 0; i < total; i++) {
            long wait = start + i * intervalNanos - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
            long due = System.currentTimeMillis() + ThreadLocalRandom.current().nextLong(minDelayMs, maxDelayMs + 1);
            String key = "m-" + i;
            producer.sendAsync(ours(key, due)).whenComplete((r, e) -> {
                if (e != null) {
                    ours.sendFailed(e);
                }
            });
            raw.send(timer(timerTopic, key, due), countFailures, SEND_TIMEOUT_MS);
        }
    }

    private static Message ours(String key, long due) {
        return Message.builder(TOPIC).keys(key).property(DUE_AT, Long.toString(due))
                .body(("delayed " + key).getBytes(StandardCharsets.UTF_8)).deliverAt(Instant.ofEpochMilli(due)).build();
    }

    private static org.apache.rocketmq.common.message.Message timer(String topic, String key, long due) {
        org.apache.rocketmq.common.message.Message m =
                new org.apache.rocketmq.common.message.Message(topic, ("delayed " + key).getBytes(StandardCharsets.UTF_8));
        m.setKeys(key);
        m.putUserProperty(DUE_AT, Long.toString(due));
        m.setDeliverTimeMs(due);
        return m;
    }
}

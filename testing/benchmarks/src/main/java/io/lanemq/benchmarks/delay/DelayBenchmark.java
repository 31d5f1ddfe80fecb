package io.lanemq.benchmarks.delay;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.Consumer;
import io.lanemq.api.Message;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.api.Subscription;
import io.lanemq.benchmarks.cpu.CpuMeter;
import io.lanemq.benchmarks.report.Figure;
import io.lanemq.benchmarks.report.FigureBenchmark;
import io.lanemq.benchmarks.report.Targets;
import io.lanemq.delay.server.DelayServer;
import io.lanemq.delay.server.DelayServerOptions;
import io.lanemq.localstack.LocalPlatform;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
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
 * same spread of delays, on one local stack, one kind after the other. Ours goes SDK send, internal topic, delay server,
 * SDK send, SDK consumer; the native baseline goes raw producer, broker timer wheel, raw consumer.
 */
@Command(name = "delay", mixinStandardHelpOptions = true,
        description = "P4: delay server vs RocketMQ native timer messages, absolute delivery error p50/p99/max at the same "
                + "rate (target: ours p99 <= max(10 ms, plain transit p99 + 5 ms), 0 early, CPU per message <= 1.5x transit).")
public final class DelayBenchmark implements FigureBenchmark {

    private static final String TOPIC = "bench-delay";
    private static final String DUE_AT = "due-at";

    /** The SDK's send timeout on the local platform; the raw producer gets the same. */
    private static final long SEND_TIMEOUT_MS = 5_000;

    private final DeliveryErrors ours = new DeliveryErrors("delay server");
    private final DeliveryErrors native_ = new DeliveryErrors("native timer");
    /** Plain messages (no delay) through the same brokers at the same rate: the floor under both kinds' errors. */
    private final DeliveryErrors transit = new DeliveryErrors("broker transit");

    @Option(names = "--rate", defaultValue = "1000", description = "Messages per second of each kind (default: ${DEFAULT-VALUE}).")
    int rate;

    @Option(names = "--seconds", defaultValue = "30", description = "How long to send (default: ${DEFAULT-VALUE}).")
    int seconds;

    @Option(names = "--min-delay-ms", defaultValue = "1000", description = "Shortest delay (default: ${DEFAULT-VALUE}).")
    long minDelayMs;

    @Option(names = "--max-delay-ms", defaultValue = "10000", description = "Longest delay (default: ${DEFAULT-VALUE}).")
    long maxDelayMs;

    @Override
    public List<Figure> measure() throws Exception {
        String group = LocalPlatform.unique("bench-delay-check");
        try (ScratchStore store = ScratchStore.create("lanemq-delay-bench");
             LocalPlatform platform = LocalPlatform.start()) {
            platform.enableDelay().addTopic(TOPIC, 8, 50, 50, group);
            String timerTopic = LocalPlatform.unique("bench-timer");
            platform.stack().createTopic(timerTopic, 8);
            String plainTopic = LocalPlatform.unique("bench-plain");
            platform.stack().createTopic(plainTopic, 8);
            DelayServerOptions settings = DelayServerOptions.builder("file:" + platform.writeConfig(), store.path())
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
                rawConsumer.subscribe(plainTopic, "*");
                rawConsumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
                    long now = System.currentTimeMillis();
                    for (MessageExt m : messages) {
                        DeliveryErrors kind = m.getTopic().equals(plainTopic) ? transit : native_;
                        kind.arrived(m.getKeys(), Long.parseLong(m.getUserProperty(DUE_AT)), now);
                    }
                    return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
                });
                rawConsumer.start();
                warmUp(producer, raw, timerTopic, plainTopic);
                CpuMeter.Reading quiet = CpuMeter.read();
                LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(5));
                System.out.printf("  idle, every client and the delay server connected: %.2f cores busy%n",
                        CpuMeter.read().since(quiet).cores());
                int total = rate * seconds;
                System.out.printf("P4: %d msgs/s for %d s of each kind, one kind after the other, delays %d-%d ms%n", rate,
                        seconds, minDelayMs, maxDelayMs);
                SendCallback countTransitFailures = countFailures(transit);
                CpuMeter.Usage transitCpu = phase(transit, total, 0, 0, (key, due) -> raw.send(plain(plainTopic, key, due), countTransitFailures, SEND_TIMEOUT_MS));
                CpuMeter.Usage oursCpu = phase(ours, total, minDelayMs, maxDelayMs, (key, due) -> producer.sendAsync(ours(key, due)).whenComplete((r, e) -> {
                    if (e != null) {
                        ours.sendFailed(e);
                    }
                }));
                ServerGauges gauges = new ServerGauges(server);
                System.out.println("  delay server, handed to the SDK minus due, p50 p99: " + gauges.fireLag());
                System.out.println("  delay server, broker ack minus due, p50 p99: " + gauges.dueLag());
                SendCallback countFailures = countFailures(native_);
                CpuMeter.Usage nativeCpu = phase(native_, total, minDelayMs, maxDelayMs, (key, due) -> raw.send(timer(timerTopic, key, due), countFailures, SEND_TIMEOUT_MS));
                List<Figure> figures = figures(total, oursCpu, transitCpu, nativeCpu);
                double oursP99 = ours.percentile(99);
                double nativeP99 = native_.percentile(99);
                System.out.printf("RESULT P4 rate=%d ours_p50_ms=%.0f ours_p99_ms=%.0f native_p50_ms=%.0f native_p99_ms=%.0f "
                                + "ratio_p99=%.3f transit_p50_ms=%.0f transit_p99_ms=%.0f early=%d target ours p99 %s %s%n", rate,
                        ours.percentile(50), oursP99, native_.percentile(50), nativeP99, nativeP99 == 0 ? 0 : oursP99 / nativeP99,
                        transit.percentile(50), transit.percentile(99), ours.early(),
                        figures.get(0).target(), figures.get(0).outcome() == Figure.Outcome.PASS ? "MET" : "MISSED");
                return figures;
            } finally {
                rawConsumer.shutdown();
                raw.shutdown();
            }
        }
    }

    private List<Figure> figures(int total, CpuMeter.Usage oursCpu, CpuMeter.Usage transitCpu, CpuMeter.Usage nativeCpu) {
        double oursCpuMs = oursCpu.cpuNanos() / 1e6 / Math.max(1, ours.distinct());
        double transitCpuMs = transitCpu.cpuNanos() / 1e6 / Math.max(1, transit.distinct());
        double nativeCpuMs = nativeCpu.cpuNanos() / 1e6 / Math.max(1, native_.distinct());
        // Every row counts only when every delayed message arrived and every send was accepted.
        boolean complete = ours.distinct() == total && ours.failedSends() == 0;
        String incomplete = String.format("%,d of %,d delayed messages arrived, %,d sends failed", ours.distinct(), total,
                ours.failedSends());
        double transitP99 = transit.percentile(99);
        return List.of(
                Figure.of("P4", String.format("delay server delivery error p99 (absolute) at %,d msgs/s vs native timer", rate))
                        .measured(ours.percentile(99), "ms").baseline(native_.percentile(99))
                        .target(Targets.p4DeliveryErrorP99(transitP99)).cpuMsPerMessage(oursCpuMs)
                        .require(complete, incomplete)
                        .note(String.format("p50 ours %.0f ms, native %.0f ms; plain transit p99 %.0f ms (target max(10, transit + 5)); "
                                + "delays %d-%d ms", ours.percentile(50), native_.percentile(50), transitP99, minDelayMs, maxDelayMs))
                        .build(),
                Figure.of("P4", String.format("delay server deliveries before their due time, %,d msgs/s", rate))
                        .measured(ours.early(), "messages").target(Targets.P4_EARLY_DELIVERIES)
                        .require(complete, incomplete)
                        .note(String.format("native timer %,d early", native_.early())).build(),
                Figure.of("P4", "delay server CPU per message vs plain transit")
                        .measured(oursCpuMs, "CPU-ms/msg").baseline(transitCpuMs).target(Targets.P4_CPU_VS_TRANSIT)
                        .cpuMsPerMessage(oursCpuMs).require(complete, incomplete)
                        .note(String.format("native timer %.3f CPU-ms/msg", nativeCpuMs)).build());
    }

    /**
     * One second of every kind at the measured rate, due a second later, waited for: consumers are in place and the
     * JIT has compiled each path before anything is measured, so no kind pays for warming the code the others share.
     */
    private void warmUp(Producer producer, DefaultMQProducer raw, String timerTopic, String plainTopic) throws Exception {
        ours.startRecording();
        native_.startRecording();
        transit.startRecording();
        SendCallback ignore = countFailures(new DeliveryErrors("warm-up"));
        long start = System.nanoTime();
        long intervalNanos = 1_000_000_000L / rate;
        for (int i = 0; i < rate; i++) {
            LockSupport.parkNanos(start + i * intervalNanos - System.nanoTime());
            long due = System.currentTimeMillis() + 1_000;
            producer.sendAsync(ours("warm-up-" + i, due));
            raw.send(timer(timerTopic, "warm-up-" + i, due), ignore, SEND_TIMEOUT_MS);
            raw.send(plain(plainTopic, "warm-up-" + i, System.currentTimeMillis()), ignore, SEND_TIMEOUT_MS);
        }
        long deadline = System.currentTimeMillis() + 120_000;
        while ((ours.distinct() < rate || native_.distinct() < rate || transit.distinct() < rate)
                && System.currentTimeMillis() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
        System.out.printf("  warm-up: %d of each kind sent, %d / %d / %d arrived%n", rate, ours.distinct(), native_.distinct(),
                transit.distinct());
        ours.reset();
        native_.reset();
        transit.reset();
    }

    /** Sends one delayed message of a kind; the send's failure is counted by the kind's {@link DeliveryErrors}. */
    @FunctionalInterface
    private interface DelayedSend {
        void send(String key, long dueAtMillis) throws Exception;
    }

    /**
     * One kind alone on the stack, so neither kind's load lands in the other's figures: paced sends (the i-th at
     * start + i / rate), then a wait until every message arrived or the longest delay plus two minutes passed.
     */
    /** @return the CPU the phase cost, every JVM of the run, from its first send to its last arrival */
    private CpuMeter.Usage phase(DeliveryErrors errors, int total, long minDelay, long maxDelay, DelayedSend sender) throws Exception {
        CpuMeter.Reading began = CpuMeter.read();
        long start = System.nanoTime();
        long intervalNanos = 1_000_000_000L / rate;
        for (int i = 0; i < total; i++) {
            long wait = start + i * intervalNanos - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
            sender.send("m-" + i, System.currentTimeMillis() + ThreadLocalRandom.current().nextLong(minDelay, maxDelay + 1));
        }
        System.out.printf("  %s: sent in %.1f s%n", errors.name(), (System.nanoTime() - start) / 1e9);
        long deadline = System.currentTimeMillis() + maxDelay + 120_000;
        while (errors.distinct() < total && System.currentTimeMillis() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200)); // a benchmark's wait, not a test's
        }
        System.out.println("  " + errors.summary(total));
        CpuMeter.Usage cpu = CpuMeter.read().since(began);
        System.out.println("    " + cpu.perThousand(errors.distinct()));
        return cpu;
    }

    private static SendCallback countFailures(DeliveryErrors errors) {
        return new SendCallback() {
            @Override
            public void onSuccess(SendResult result) {
            }

            @Override
            public void onException(Throwable e) {
                errors.sendFailed(e);
            }
        };
    }

    private static Message ours(String key, long due) {
        return Message.builder(TOPIC).keys(key).property(DUE_AT, Long.toString(due))
                .body(("delayed " + key).getBytes(StandardCharsets.UTF_8)).deliverAt(Instant.ofEpochMilli(due)).build();
    }

    private static org.apache.rocketmq.common.message.Message plain(String topic, String key, long sentAt) {
        org.apache.rocketmq.common.message.Message m =
                new org.apache.rocketmq.common.message.Message(topic, ("plain " + key).getBytes(StandardCharsets.UTF_8));
        m.setKeys(key);
        m.putUserProperty(DUE_AT, Long.toString(sentAt));
        return m;
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

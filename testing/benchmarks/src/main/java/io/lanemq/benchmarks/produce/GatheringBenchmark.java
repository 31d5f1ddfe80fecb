package io.lanemq.benchmarks.produce;

import io.lanemq.api.Message;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.benchmarks.report.Figure;
import io.lanemq.benchmarks.report.FigureBenchmark;
import io.lanemq.benchmarks.report.Target;
import io.lanemq.benchmarks.report.Targets;
import io.lanemq.config.BatchConfig;
import io.lanemq.localstack.LocalPlatform;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * P2: the SDK's batch gathering against RocketMQ's own clients, on the same broker, topic and body size, in
 * alternating rounds: SDK sync sends (gathering on, the platform's defaults) against raw {@link DefaultMQProducer}
 * sync sends and against {@code setAutoBatch(true)} sync sends, with 8 and 64 threads; SDK async sends against raw
 * async sends with {@code setAutoBatch(true)}, with as many sends in flight. Each side's CPU per message counts every
 * JVM of the run over its own rounds.
 *
 * <p>The auto-batching producer gets a client instance of its own: RocketMQ shares one accumulator per client
 * instance (apache/rocketmq#8806), which would otherwise batch the raw side's sends too.
 */
@Command(name = "produce-batch", mixinStandardHelpOptions = true,
        description = "P2: SDK sends with batch gathering vs raw DefaultMQProducer sync sends (>= 2.0), vs setAutoBatch "
                + "sync sends (>= 1.5), and async with gathering vs raw async with setAutoBatch (>= 1.0).")
public final class GatheringBenchmark implements FigureBenchmark {
    @Mixin
    RoundOptions options = new RoundOptions();

    private static final String TOPIC = "bench-gathering";

    @Option(names = "--threads", split = ",", defaultValue = "8,64",
            description = "Sync sender thread counts, each compared on its own (default: ${DEFAULT-VALUE}).")
    List<Integer> threads;

    @Option(names = "--in-flight", defaultValue = "1024",
            description = "Async sends outstanding at once, both sides (default: ${DEFAULT-VALUE}).")
    int inFlight;

    @Option(names = "--max-in-flight", description = "Gathering: requests of a queue in flight (default: the platform's, "
            + "BatchConfig.DEFAULTS).")
    Integer maxInFlight;

    @Option(names = "--max-messages", description = "Gathering: messages per request (default: the platform's).")
    Integer maxMessages;

    @Override
    public List<Figure> measure() throws Exception {
        byte[] body = new byte[options.bodyBytes];
        try (LocalPlatform platform = LocalPlatform.start()) {
            platform.addTopic(TOPIC, 8, 100, 0); // IDC A only: every side hits the same broker and topic
            BatchConfig defaults = BatchConfig.DEFAULTS;
            BatchConfig gathering = new BatchConfig(maxMessages == null ? defaults.maxMessages() : maxMessages,
                    defaults.maxBytes(), maxInFlight == null ? defaults.maxInFlight() : maxInFlight, defaults.linger());
            platform.batch(gathering);
            String physical = platform.physicalTopic(TOPIC);
            DefaultMQProducer raw = rawProducer(platform, "bench-raw", false);
            DefaultMQProducer autoBatch = rawProducer(platform, "bench-autobatch", true);
            try (MessagingClient client = platform.client("bench-gathering");
                 Producer sdk = client.createProducer(ProducerOptions.defaults())) {
                SendLoop rawSync = () -> requireOk(raw.send(new org.apache.rocketmq.common.message.Message(physical, body)));
                SendLoop autoBatchSync = () -> requireOk(autoBatch.send(new org.apache.rocketmq.common.message.Message(physical, body)));
                SendLoop sdkSync = () -> sdk.send(Message.builder(TOPIC).body(body).build());
                AsyncSend autoBatchAsync = () -> sendAsync(autoBatch, new org.apache.rocketmq.common.message.Message(physical, body));
                AsyncSend sdkAsync = () -> sdk.sendAsync(Message.builder(TOPIC).body(body).build());

                System.out.printf("P2 gathering: %d-byte bodies, %d x %d s rounds per side after %d s warm-up; %s%n",
                        options.bodyBytes, options.rounds, options.roundSeconds, options.warmupSeconds, gathering);
                List<Figure> figures = new ArrayList<>();
                for (int t : threads) {
                    Map<String, Workload> workloads = new LinkedHashMap<>();
                    workloads.put("raw", sync(rawSync, t));
                    workloads.put("autoBatch", sync(autoBatchSync, t));
                    workloads.put("sdk", sync(sdkSync, t));
                    Map<String, MeasuredSide> sides = measureRounds(t + " threads", workloads);
                    MeasuredSide gathered = sides.get("sdk");
                    figures.add(figure(gathered, sides.get("raw"), Targets.P2_GATHERED_VS_RAW_SYNC,
                            "SDK sync, gathering vs raw DefaultMQProducer sync, " + t + " threads"));
                    figures.add(figure(gathered, sides.get("autoBatch"), Targets.P2_GATHERED_VS_AUTO_BATCH_SYNC,
                            "SDK sync, gathering vs setAutoBatch sync, " + t + " threads"));
                }
                Map<String, Workload> asyncWorkloads = new LinkedHashMap<>();
                asyncWorkloads.put("autoBatch", async(autoBatchAsync));
                asyncWorkloads.put("sdk", async(sdkAsync));
                Map<String, MeasuredSide> async = measureRounds("async " + inFlight + " in flight", asyncWorkloads);
                figures.add(figure(async.get("sdk"), async.get("autoBatch"), Targets.P2_GATHERED_ASYNC_VS_AUTO_BATCH_ASYNC,
                        "SDK async, gathering vs setAutoBatch async, " + inFlight + " in flight"));
                return figures;
            } finally {
                raw.shutdown();
                autoBatch.shutdown();
            }
        }
    }

    /** One side's work for a round of {@code seconds}, measured on {@code side}; returns the round's rate. */
    @FunctionalInterface
    private interface Workload {
        double run(MeasuredSide side, int seconds) throws InterruptedException;
    }

    private static Workload sync(SendLoop loop, int threadCount) {
        return (side, seconds) -> side.round(loop, threadCount, seconds);
    }

    private Workload async(AsyncSend send) {
        return (side, seconds) -> side.round(send, inFlight, seconds);
    }

    /** Warms each side up, then runs the measured rounds, alternating the sides in the map's order. */
    private Map<String, MeasuredSide> measureRounds(String label, Map<String, Workload> workloads) throws InterruptedException {
        Map<String, MeasuredSide> sides = new LinkedHashMap<>();
        for (Map.Entry<String, Workload> workload : workloads.entrySet()) {
            workload.getValue().run(new MeasuredSide("warm-up"), options.warmupSeconds);
            sides.put(workload.getKey(), new MeasuredSide(workload.getKey()));
        }
        for (int round = 1; round <= options.rounds; round++) {
            StringBuilder line = new StringBuilder(String.format("  %s, round %d:", label, round));
            for (MeasuredSide side : sides.values()) {
                line.append(String.format(" %s %,.0f msgs/s", side.name(), workloads.get(side.name()).run(side, options.roundSeconds)));
            }
            System.out.println(line);
        }
        return sides;
    }

    private static Figure figure(MeasuredSide measured, MeasuredSide baseline, Target target, String name) {
        double ratio = measured.meanRate() / baseline.meanRate();
        System.out.printf("RESULT P2 %s: %,.0f vs %,.0f msgs/s, ratio %.2f (%s), CPU-ms/msg %.3f vs %.3f%n", name,
                measured.meanRate(), baseline.meanRate(), ratio, target.isMetBy(ratio) ? "MET" : "MISSED",
                measured.cpuMsPerMessage(), baseline.cpuMsPerMessage());
        return Figure.of("P2", name).measured(measured.meanRate(), "msgs/s").baseline(baseline.meanRate()).target(target)
                .cpuMsPerMessage(measured.cpuMsPerMessage())
                .note(String.format("baseline %.3f CPU-ms/msg", baseline.cpuMsPerMessage())).build();
    }

    private static DefaultMQProducer rawProducer(LocalPlatform platform, String name, boolean autoBatch) throws Exception {
        DefaultMQProducer producer = new DefaultMQProducer(name + "-producer");
        producer.setNamesrvAddr(platform.idcA().nameServerAddress());
        producer.setInstanceName(name);
        producer.setAutoBatch(autoBatch);
        producer.start();
        return producer;
    }

    private static void requireOk(SendResult result) {
        if (result.getSendStatus() != SendStatus.SEND_OK) {
            throw new IllegalStateException("raw send answered " + result.getSendStatus());
        }
    }

    private static CompletableFuture<SendResult> sendAsync(DefaultMQProducer producer, org.apache.rocketmq.common.message.Message message) {
        CompletableFuture<SendResult> answer = new CompletableFuture<>();
        try {
            producer.send(message, new SendCallback() {
                @Override
                public void onSuccess(SendResult result) {
                    answer.complete(result);
                }

                @Override
                public void onException(Throwable error) {
                    answer.completeExceptionally(error);
                }
            });
        } catch (Exception e) {
            answer.completeExceptionally(e);
        }
        return answer;
    }
}

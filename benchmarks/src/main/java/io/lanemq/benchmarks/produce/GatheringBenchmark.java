package io.lanemq.benchmarks.produce;

import io.lanemq.api.Message;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.benchmarks.report.BenchReport;
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
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import picocli.CommandLine.Command;
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
public final class GatheringBenchmark implements Callable<Integer>, FigureBenchmark {
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

    @Option(names = "--body-bytes", defaultValue = "300", description = "Body size (default: ${DEFAULT-VALUE}).")
    int bodyBytes;

    @Option(names = "--round-seconds", defaultValue = "10", description = "Length of one measured round (default: ${DEFAULT-VALUE}).")
    int roundSeconds;

    @Option(names = "--rounds", defaultValue = "3", description = "Measured rounds per side, alternating (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--warmup-seconds", defaultValue = "5", description = "Unmeasured warm-up per side (default: ${DEFAULT-VALUE}).")
    int warmupSeconds;

    @Override
    public Integer call() throws Exception {
        return BenchReport.standalone(this);
    }

    @Override
    public List<Figure> measure() throws Exception {
        byte[] body = new byte[bodyBytes];
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
                        bodyBytes, rounds, roundSeconds, warmupSeconds, gathering);
                List<Figure> figures = new ArrayList<>();
                for (int t : threads) {
                    Map<String, MeasuredSide> sides = syncRounds(t, Map.of("raw", rawSync, "autoBatch", autoBatchSync, "sdk", sdkSync));
                    MeasuredSide gathered = sides.get("sdk");
                    figures.add(figure(gathered, sides.get("raw"), Targets.P2_GATHERED_VS_RAW_SYNC,
                            "SDK sync, gathering vs raw DefaultMQProducer sync, " + t + " threads"));
                    figures.add(figure(gathered, sides.get("autoBatch"), Targets.P2_GATHERED_VS_AUTO_BATCH_SYNC,
                            "SDK sync, gathering vs setAutoBatch sync, " + t + " threads"));
                }
                Map<String, MeasuredSide> async = asyncRounds(Map.of("autoBatch", autoBatchAsync, "sdk", sdkAsync));
                figures.add(figure(async.get("sdk"), async.get("autoBatch"), Targets.P2_GATHERED_ASYNC_VS_AUTO_BATCH_ASYNC,
                        "SDK async, gathering vs setAutoBatch async, " + inFlight + " in flight"));
                return figures;
            } finally {
                raw.shutdown();
                autoBatch.shutdown();
            }
        }
    }

    private Map<String, MeasuredSide> syncRounds(int threadCount, Map<String, SendLoop> loops) throws InterruptedException {
        Map<String, MeasuredSide> sides = new LinkedHashMap<>();
        for (String name : List.of("raw", "autoBatch", "sdk")) {
            Throughput.measure(loops.get(name), threadCount, warmupSeconds);
            sides.put(name, new MeasuredSide(name));
        }
        for (int round = 1; round <= rounds; round++) {
            StringBuilder line = new StringBuilder(String.format("  %d threads, round %d:", threadCount, round));
            for (MeasuredSide side : sides.values()) {
                line.append(String.format(" %s %,.0f msgs/s", side.name(), side.round(loops.get(side.name()), threadCount, roundSeconds)));
            }
            System.out.println(line);
        }
        return sides;
    }

    private Map<String, MeasuredSide> asyncRounds(Map<String, AsyncSend> sends) throws InterruptedException {
        Map<String, MeasuredSide> sides = new LinkedHashMap<>();
        for (String name : List.of("autoBatch", "sdk")) {
            Throughput.runAsync(sends.get(name), inFlight, warmupSeconds);
            sides.put(name, new MeasuredSide(name));
        }
        for (int round = 1; round <= rounds; round++) {
            StringBuilder line = new StringBuilder(String.format("  async %d in flight, round %d:", inFlight, round));
            for (MeasuredSide side : sides.values()) {
                line.append(String.format(" %s %,.0f msgs/s", side.name(), side.round(sends.get(side.name()), inFlight, roundSeconds)));
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

package io.lanemq.benchmarks.produce;

import io.lanemq.api.Message;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.benchmarks.report.Figure;
import io.lanemq.benchmarks.report.FigureBenchmark;
import io.lanemq.benchmarks.report.Targets;
import io.lanemq.config.BatchConfig;
import io.lanemq.localstack.LocalPlatform;
import java.util.ArrayList;
import java.util.List;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * P1: SDK sync sends on a logic topic against raw {@link DefaultMQProducer} sync sends, same
 * broker, same physical topic, same body size and thread count, measured in alternating rounds
 * so drift (page cache, JIT, GC) hits both sides alike. Each side's CPU per message counts every JVM of the run
 * (this one and the brokers) over its own rounds.
 */
@Command(name = "produce", mixinStandardHelpOptions = true,
        description = "P1: SDK sync send vs raw DefaultMQProducer sync send (target ratio >= 0.95).")
public final class ProduceBenchmark implements FigureBenchmark {
    @Mixin
    RoundOptions options = new RoundOptions();

    private static final String TOPIC = "bench-produce";

    @Option(names = "--threads", defaultValue = "8", description = "Sending threads for both sides (default: ${DEFAULT-VALUE}).")
    int threads;

    @Override
    public List<Figure> measure() throws Exception {
        byte[] body = new byte[options.bodyBytes];
        try (LocalPlatform platform = LocalPlatform.start()) {
            // All weight on IDC A: the SDK and the raw producer hit the same broker and topic. Gathering off: P1 is
            // what the SDK's layers cost per send; what gathering gains is P2's (the produce-batch benchmark).
            platform.addTopic(TOPIC, 8, 100, 0).batch(BatchConfig.OFF);
            DefaultMQProducer raw = new DefaultMQProducer("bench-raw-producer");
            raw.setNamesrvAddr(platform.idcA().nameServerAddress());
            raw.setInstanceName("bench-raw");
            raw.start();
            try (MessagingClient client = platform.client("bench-produce");
                 Producer sdk = client.createProducer(ProducerOptions.defaults())) {
                String physical = platform.physicalTopic(TOPIC);
                SendLoop rawLoop = () -> {
                    if (raw.send(new org.apache.rocketmq.common.message.Message(physical, body)).getSendStatus() != SendStatus.SEND_OK) {
                        throw new IllegalStateException("raw send not OK");
                    }
                };
                SendLoop sdkLoop = () -> sdk.send(Message.builder(TOPIC).body(body).build());
                return compare(rawLoop, sdkLoop);
            } finally {
                raw.shutdown();
            }
        }
    }

    private List<Figure> compare(SendLoop rawLoop, SendLoop sdkLoop) throws InterruptedException {
        System.out.printf("P1 produce: %d threads, %d-byte bodies, %d x %d s rounds per side after %d s warm-up%n",
                threads, options.bodyBytes, options.rounds, options.roundSeconds, options.warmupSeconds);
        Throughput.measure(rawLoop, threads, options.warmupSeconds);
        Throughput.measure(sdkLoop, threads, options.warmupSeconds);
        MeasuredSide raw = new MeasuredSide("raw");
        MeasuredSide sdk = new MeasuredSide("sdk");
        List<String> roundRatios = new ArrayList<>();
        for (int round = 1; round <= options.rounds; round++) {
            double rawRate = raw.round(rawLoop, threads, options.roundSeconds);
            double sdkRate = sdk.round(sdkLoop, threads, options.roundSeconds);
            roundRatios.add(String.format("%.3f", sdkRate / rawRate));
            System.out.printf("  round %d: raw %,.0f msgs/s, sdk %,.0f msgs/s, ratio %.3f%n", round, rawRate, sdkRate, sdkRate / rawRate);
        }
        double rawMean = raw.meanRate();
        double sdkMean = sdk.meanRate();
        double ratio = sdkMean / rawMean;
        System.out.printf("  CPU per message (every JVM): raw %.3f ms, sdk %.3f ms%n", raw.cpuMsPerMessage(), sdk.cpuMsPerMessage());
        System.out.printf("RESULT P1 raw=%,.0f msgs/s sdk=%,.0f msgs/s ratio=%.3f target>=0.95 %s%n",
                rawMean, sdkMean, ratio, Targets.P1_SDK_VS_RAW_SYNC.isMetBy(ratio) ? "MET" : "MISSED");
        return List.of(Figure.of("P1", String.format("SDK sync send vs raw DefaultMQProducer, %d threads, %d B", threads, options.bodyBytes))
                .measured(sdkMean, "msgs/s").baseline(rawMean).target(Targets.P1_SDK_VS_RAW_SYNC)
                .cpuMsPerMessage(sdk.cpuMsPerMessage())
                .note(String.format("raw %.3f CPU-ms/msg; round ratios %s", raw.cpuMsPerMessage(), String.join(" ", roundRatios)))
                .build());
    }
}

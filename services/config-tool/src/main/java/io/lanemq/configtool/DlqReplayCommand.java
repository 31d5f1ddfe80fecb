package io.lanemq.configtool;

import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.MessagingException;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.rocketmq.DeadLetter;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * Sends a group's dead letters of a logic topic to the logic topic again, through the SDK (so they are routed, rate
 * limited and failed over as any send), paced at {@code --rate}. Every cluster's dead letters are read; RocketMQ cannot
 * remove them, so a replay leaves them in place and a second replay sends them again: each carries its original id
 * ({@link ReplayedMessage}), which a deduplicating group recognises.
 */
@Command(name = "replay", mixinStandardHelpOptions = true,
        description = "Sends a group's dead letters of a logic topic to the logic topic again (keys, lane and stress marks "
                + "kept; the original id in LANEMQ_ORIGINAL_MESSAGE_ID, which deduplication recognises), paced.")
final class DlqReplayCommand implements Callable<Integer> {
    /** Send failures named in full on stderr; the rest are only counted, so a broken cluster cannot flood the terminal. */
    private static final int FAILURES_NAMED = 5;

    @Spec
    CommandSpec spec;

    @Mixin
    GroupOptions options;

    @ArgGroup(multiplicity = "1")
    Selection selection;

    static final class Selection {
        @Option(names = "--all", description = "Every dead letter of the logic topic.")
        boolean all;

        @Option(names = "--id", paramLabel = "<message-id>", split = ",",
                description = "These messages (their ids as list and show print them; repeat or separate with commas).")
        Set<String> ids;

        @Option(names = "--between", paramLabel = "<from>/<to>", converter = TimeRange.Converter.class,
                description = "Those dead-lettered in this range of ISO-8601 instants, end excluded: " + TimeRange.EXAMPLE)
        TimeRange range;
    }

    @Option(names = "--rate", defaultValue = "50", paramLabel = "<per-second>",
            description = "Messages sent per second at most (1-10000; default ${DEFAULT-VALUE}).")
    int rate;

    @Option(names = "--dry-run", description = "List what would be replayed; send nothing.")
    boolean dryRun;

    @Override
    public Integer call() {
        if (rate < 1 || rate > 10_000) {
            throw new ParameterException(spec.commandLine(), "--rate must be between 1 and 10000 messages per second, was " + rate);
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try (GroupDeadLetters letters = GroupDeadLetters.open(options);
             MessagingClient client = dryRun ? null : MessagingClient.create(ToolClients.options(options.configLocation,
                     options.environment));
             Producer producer = dryRun ? null : client.createProducer(ProducerOptions.defaults())) {
            Replay replay = new Replay(out, producer);
            long started = System.nanoTime();
            boolean complete = letters.readEach(out, replay);
            double seconds = (System.nanoTime() - started) / 1e9;
            out.printf("total %d %s in %.2f s%n", replay.total, dryRun ? "would be replayed" : "replayed", seconds);
            out.flush();
            int exit = ConfigTool.OK;
            if (selection.ids != null) {
                Set<String> missing = new TreeSet<>(selection.ids);
                missing.removeAll(replay.found);
                if (!missing.isEmpty()) {
                    err.println("not found on any cluster read: " + missing);
                    exit = ConfigTool.INVALID;
                }
            }
            if (replay.failed > 0) {
                err.println(replay.failed + " replays failed (" + String.join("; ", replay.failures) + "); run the same replay "
                        + "again once the cause is fixed: a deduplicating group takes each message once");
                exit = ConfigTool.INCOMPLETE;
            }
            if (!complete) {
                err.println("not every cluster could be read (marked FAILED); replay again once it is back");
                exit = ConfigTool.INCOMPLETE;
            }
            return exit;
        } catch (MessagingException e) {
            err.println(e.getMessage());
            return ConfigTool.INVALID;
        }
    }

    private boolean selected(DeadLetter letter) {
        return selection.all || selection.ids != null && selection.ids.contains(letter.message().messageId())
                || selection.range != null && selection.range.contains(letter.deadLetteredAt());
    }

    /** One run's sends, paced by one limiter over all clusters. */
    private final class Replay implements GroupDeadLetters.ClusterRead {
        private final PrintWriter out;
        private final Producer producer;
        private final RateLimiter limiter;
        private final Set<String> found = new HashSet<>();
        private final List<String> failures = new ArrayList<>();
        private long total;
        private long failed;
        private long ofCluster;

        Replay(PrintWriter out, Producer producer) {
            this.out = out;
            this.producer = producer;
            // One permit per 1/rate s, not `rate` per second: an even pace, never a burst of a second's worth at once.
            this.limiter = RateLimiter.of("dlq-replay", RateLimiterConfig.custom().limitForPeriod(1)
                    .limitRefreshPeriod(Duration.ofNanos(1_000_000_000L / rate)).timeoutDuration(Duration.ofSeconds(1)).build());
        }

        @Override
        public Predicate<DeadLetter> sink(String cluster) {
            ofCluster = 0;
            return letter -> {
                if (selected(letter)) {
                    found.add(letter.message().messageId());
                    send(letter);
                }
                return true;
            };
        }

        private void send(DeadLetter letter) {
            if (dryRun) {
                out.println("would replay " + letter.message().messageId() + " from " + letter.cluster() + " (dead-lettered "
                        + letter.deadLetteredAt() + ", original id " + ReplayedMessage.originalId(letter) + ")");
                ofCluster++;
                total++;
                return;
            }
            while (!limiter.acquirePermission()) {
                // waited a whole timeout without a permit (a stalled clock or a very slow machine): ask again
            }
            try {
                producer.send(ReplayedMessage.of(options.logicTopic, letter));
                ofCluster++;
                total++;
            } catch (MessagingException | RuntimeException e) {
                failed++;
                if (failures.size() < FAILURES_NAMED) {
                    failures.add(letter.message().messageId() + ": " + e.getMessage());
                }
            }
        }

        @Override
        public String summary(String cluster, String deadLetterTopic) {
            return cluster + " " + deadLetterTopic + ": " + ofCluster + (dryRun ? " would be replayed" : " replayed");
        }
    }
}

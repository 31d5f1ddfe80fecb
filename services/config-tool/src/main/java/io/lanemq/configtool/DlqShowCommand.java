package io.lanemq.configtool;

import io.lanemq.api.MessagingException;
import io.lanemq.rocketmq.DeadLetter;
import java.io.PrintWriter;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** A few dead letters with their bodies and properties, oldest first, cluster by cluster. */
@Command(name = "show", mixinStandardHelpOptions = true,
        description = "Prints a group's dead letters of a logic topic (oldest first, cluster by cluster): id, times, "
                + "deliveries, keys, tag, properties (lane and stress marks included) and body.")
final class DlqShowCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    GroupOptions options;

    @Option(names = "--limit", defaultValue = "5", paramLabel = "<count>",
            description = "How many to print at most, over all clusters (1-1000; default ${DEFAULT-VALUE}).")
    int limit;

    @Option(names = "--id", paramLabel = "<message-id>", split = ",",
            description = "Only these messages (their ids as list and show print them; repeat or separate with commas).")
    Set<String> ids = Set.of();

    @Option(names = "--max-body", defaultValue = "1000", paramLabel = "<characters>",
            description = "Characters of each body to print at most (default ${DEFAULT-VALUE}).")
    int maxBody;

    @Override
    public Integer call() {
        if (limit < 1 || limit > 1000) {
            throw new ParameterException(spec.commandLine(), "--limit must be between 1 and 1000, was " + limit);
        }
        if (maxBody < 1) {
            throw new ParameterException(spec.commandLine(), "--max-body must be at least 1, was " + maxBody);
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        AtomicInteger shown = new AtomicInteger();
        try (GroupDeadLetters letters = GroupDeadLetters.open(options)) {
            boolean complete = letters.readEach(out, new GroupDeadLetters.ClusterRead() {
                private int ofCluster;

                @Override
                public Predicate<DeadLetter> sink(String cluster) {
                    ofCluster = 0;
                    return letter -> {
                        if (shown.get() >= limit) {
                            return false;
                        }
                        if (ids.isEmpty() || ids.contains(letter.message().messageId())) {
                            out.println(DeadLetterText.of(letter, maxBody));
                            shown.incrementAndGet();
                            ofCluster++;
                        }
                        return true;
                    };
                }

                @Override
                public String summary(String cluster, String deadLetterTopic) {
                    return cluster + " " + deadLetterTopic + ": " + ofCluster + " shown";
                }
            });
            if (!complete) {
                err.println("not every cluster could be read (marked FAILED)");
                return ConfigTool.INCOMPLETE;
            }
            return ConfigTool.OK;
        } catch (MessagingException e) {
            err.println(e.getMessage());
            return ConfigTool.INVALID;
        }
    }
}

package io.lanemq.configtool;

import io.lanemq.api.MessagingException;
import io.lanemq.rocketmq.DeadLetter;
import java.io.PrintWriter;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** How many dead letters of a logic topic a group has on each cluster, and the oldest. */
@Command(name = "list", mixinStandardHelpOptions = true,
        description = "Counts a group's dead letters of a logic topic on every cluster, with the oldest one's times.")
final class DlqListCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    GroupOptions options;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try (GroupDeadLetters letters = GroupDeadLetters.open(options)) {
            Map<String, Tally> tallies = new HashMap<>();
            long[] total = {0}; // of the clusters read to the end: one that failed half-way counts in none
            boolean complete = letters.readEach(out, new GroupDeadLetters.ClusterRead() {
                @Override
                public Predicate<DeadLetter> sink(String cluster) {
                    return tallies.computeIfAbsent(cluster, c -> new Tally())::add;
                }

                @Override
                public String summary(String cluster, String deadLetterTopic) {
                    Tally tally = tallies.get(cluster);
                    total[0] += tally.count;
                    DeadLetter oldest = tally.oldest;
                    return cluster + " " + deadLetterTopic + ": " + tally.count + " dead letters" + (oldest == null ? ""
                            : ", oldest dead-lettered " + oldest.deadLetteredAt() + " (sent " + oldest.bornAt() + ", id "
                            + oldest.message().messageId() + ")");
                }
            });
            out.println("total " + total[0]);
            out.flush();
            if (!complete) {
                err.println("not every cluster could be read; the total misses those marked FAILED");
                return ConfigTool.INCOMPLETE;
            }
            return ConfigTool.OK;
        } catch (MessagingException e) {
            err.println(e.getMessage());
            return ConfigTool.INVALID;
        }
    }

    private static final class Tally {
        long count;
        DeadLetter oldest;

        boolean add(DeadLetter letter) {
            count++;
            if (oldest == null || letter.deadLetteredAt().isBefore(oldest.deadLetteredAt())) {
                oldest = letter;
            }
            return true;
        }
    }
}

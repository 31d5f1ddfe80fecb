package io.lanemq.configtool;

import io.lanemq.api.MessagingClient;
import io.lanemq.api.MessagingException;
import io.lanemq.api.SeekResult;
import io.lanemq.api.UnknownTopicException;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Moves a consumer group to a time or to the end of its logic topic on every cluster, through the SDK
 * ({@link MessagingClient#seek}): the group's live members are told by the brokers and move without a restart.
 */
@Command(name = "seek", mixinStandardHelpOptions = true, description = "Moves a consumer group of a logic topic, on every "
        + "cluster, to the first message at or after a time (to replay), or to the end (to skip what waits).")
final class SeekCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    GroupOptions options;

    @ArgGroup(multiplicity = "1")
    Target target;

    static final class Target {
        @Option(names = "--to-time", paramLabel = "<instant>", description = "An ISO-8601 instant, e.g. 2026-11-27T08:00:00Z.")
        Instant time;

        @Option(names = "--to-latest", description = "The end of every queue: what waits now is skipped.")
        boolean latest;
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Optional<Instant> to = target.latest ? Optional.empty() : Optional.of(target.time);
        try (MessagingClient client = MessagingClient.create(ToolClients.options(options.configLocation, options.environment))) {
            SeekResult result = client.seek(options.logicTopic, options.group, to);
            for (SeekResult.Cluster cluster : result.clusters()) {
                out.println(cluster.cluster() + " " + cluster.physicalTopic() + ": " + cluster.failure().map(why -> "FAILED " + why)
                        .orElse(cluster.queues() + " queues moved, committed offsets written; " + (cluster.membersTold()
                                ? "the members its brokers list were told" : "no live member")));
            }
            out.flush();
            if (!result.complete()) {
                err.println("not every cluster moved; run the same seek again once it is reachable");
                return ConfigTool.INCOMPLETE;
            }
            return ConfigTool.OK;
        } catch (UnknownTopicException e) {
            err.println(e.getMessage());
            return ConfigTool.INVALID;
        } catch (MessagingException e) {
            err.println("no cluster moved: " + e.getMessage());
            return ConfigTool.INCOMPLETE;
        }
    }
}

package io.lanemq.configtool;

import io.lanemq.config.PlatformConfigParser;
import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.config.etcd.EtcdClient;
import io.lanemq.config.etcd.EtcdException;
import io.lanemq.config.store.ConfigStore;
import io.lanemq.config.store.HistoryEntry;
import io.lanemq.config.store.PendingCanary;
import io.lanemq.config.store.Published;
import io.lanemq.config.store.PublishOutcome;
import io.lanemq.config.store.PublishGuard;
import java.util.List;
import io.lanemq.config.store.YamlDiff;
import java.io.PrintWriter;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * Publishes, for everyone, the document a history entry put in force. A canary's candidate was never in force for
 * everyone, so rolling back to it is refused (promote a canary instead); while a canary is pending, the rollback waits
 * like any publish, since its clients would otherwise keep the candidate over the restored document.
 */
@Command(name = "rollback", mixinStandardHelpOptions = true, description = "Publishes again, for every client, the "
        + "document a revision of the history put in force (validated first, compare-and-swap like publish).")
final class RollbackCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "<revision>", description = "The history entry's revision (see 'history').")
    long revision;

    @Mixin
    EtcdOptions etcd;

    @Option(names = {"-m", "--comment"}, paramLabel = "<why>", required = true, description = "Why, kept in the key's history.")
    String comment;

    @Option(names = "--author", paramLabel = "<name>", description = "Who, kept in the key's history (default: ${sys:user.name}).")
    String author = System.getProperty("user.name", "unknown");

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try (EtcdClient client = etcd.connect()) {
            ConfigStore store = new ConfigStore(client, etcd.key);
            Optional<HistoryEntry> entry = store.entry(revision);
            if (entry.isEmpty()) {
                err.println("not rolled back: no revision " + revision + " in the history of " + etcd.key);
                return ConfigTool.INVALID;
            }
            if (!entry.get().ranEverywhere()) {
                err.println("not rolled back: revision " + revision + " was a canary (" + entry.get().change()
                        + "), never in force for every client; publish it as a canary again, or roll back to a publish");
                return ConfigTool.INVALID;
            }
            Optional<PendingCanary> pending = store.canary();
            if (pending.isPresent()) {
                err.println("not rolled back: " + Canaries.describe(pending.get(), etcd.key) + "; promote or abandon it first");
                return ConfigTool.CONFLICT;
            }
            String yaml = entry.get().yaml();
            try {
                new PlatformConfigParser().parse(yaml, "revision " + revision + " of " + etcd.key);
            } catch (InvalidConfigurationException e) {
                err.println("not rolled back: " + e.getMessage());
                return ConfigTool.INVALID;
            }
            Published live = store.current();
            List<String> refusals;
            try {
                refusals = PublishGuard.refusals(live.yaml(), yaml);
            } catch (InvalidConfigurationException e) {
                err.println("not rolled back: " + e.getMessage());
                return ConfigTool.INVALID;
            }
            if (!refusals.isEmpty()) {
                refusals.forEach(reason -> err.println("refused: " + reason));
                err.println("not rolled back: the change trips a guard rail; publish the document with --force if it is meant");
                return ConfigTool.GUARDED;
            }
            String diff = YamlDiff.between(live.yaml(), yaml, "revision " + live.revision(), "revision " + revision);
            if (diff.isEmpty()) {
                out.println("not rolled back: " + etcd.key + " already holds the document of revision " + revision);
                return ConfigTool.OK;
            }
            PublishOutcome outcome = store.publish(live.revision(), yaml, live.yaml(), author, comment,
                    "roll back to revision " + revision, diff);
            if (!outcome.written()) {
                err.println("not rolled back: etcd key " + etcd.key + " or its canary changed in between; nothing was written");
                return ConfigTool.CONFLICT;
            }
            out.println(diff);
            out.println("rolled back etcd key " + etcd.key + " to the document of revision " + revision + " at revision "
                    + outcome.revision());
            return ConfigTool.OK;
        } catch (EtcdException e) {
            err.println("not rolled back: " + e.getMessage());
            return ConfigTool.ETCD_FAILED;
        }
    }
}

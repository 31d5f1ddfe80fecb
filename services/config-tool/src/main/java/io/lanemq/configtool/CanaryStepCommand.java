package io.lanemq.configtool;

import io.lanemq.config.etcd.EtcdClient;
import io.lanemq.config.etcd.EtcdException;
import io.lanemq.config.store.ConfigStore;
import io.lanemq.config.store.PendingCanary;
import io.lanemq.config.store.PublishOutcome;
import java.io.PrintWriter;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Ends the pending canary, {@link Promote promoting} or {@link Abandon abandoning} it, only if it is still the one
 * reviewed (the pending one read just before, or {@code --expect-canary-revision}); each step is one etcd transaction
 * with its history entry.
 */
abstract class CanaryStepCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    EtcdOptions etcd;

    @Option(names = "--expect-canary-revision", paramLabel = "<revision>", description = "Only if the canary is still at "
            + "this revision (as 'history' printed it). Default: the pending one read just before.")
    Long expectRevision;

    @Option(names = {"-m", "--comment"}, paramLabel = "<why>", description = "Why, kept in the key's history.")
    String comment;

    @Option(names = "--author", paramLabel = "<name>", description = "Who, kept in the key's history (default: ${sys:user.name}).")
    String author = System.getProperty("user.name", "unknown");

    /** The step, e.g. {@code promoted}. */
    abstract String done();

    abstract PublishOutcome step(ConfigStore store, long canaryRevision, String author, String comment) throws EtcdException;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try (EtcdClient client = etcd.connect()) {
            ConfigStore store = new ConfigStore(client, etcd.key);
            Optional<PendingCanary> pending = store.canary();
            if (pending.isEmpty()) {
                err.println("no canary is pending in " + store.canaryKey() + " on [" + client.describe() + "]");
                return ConfigTool.INVALID;
            }
            long expected = expectRevision != null ? expectRevision : pending.get().revision();
            PublishOutcome outcome = expected != pending.get().revision() ? null
                    : step(store, expected, author, comment == null ? done() + " with lanemq-config" : comment);
            if (outcome == null || !outcome.written()) {
                err.println("not " + done() + ": the canary was expected at revision " + expected + " but "
                        + Canaries.describe(store.canary().orElse(pending.get()), etcd.key)
                        + ", or the configuration moved; nothing was written");
                return ConfigTool.CONFLICT;
            }
            out.println(done() + " " + Canaries.describe(pending.get(), etcd.key).replace(" is pending", "") + " at revision "
                    + outcome.revision());
            return ConfigTool.OK;
        } catch (EtcdException e) {
            err.println("not " + done() + ": " + e.getMessage());
            return ConfigTool.ETCD_FAILED;
        }
    }

    @Command(name = "promote", mixinStandardHelpOptions = true, description = "Writes the pending canary's candidate as "
            + "the configuration for every client and removes the canary, in one transaction.")
    static final class Promote extends CanaryStepCommand {
        @Override
        String done() {
            return "promoted";
        }

        @Override
        PublishOutcome step(ConfigStore store, long canaryRevision, String author, String comment) throws EtcdException {
            return store.promote(canaryRevision, author, comment);
        }
    }

    @Command(name = "abandon", mixinStandardHelpOptions = true, description = "Removes the pending canary: its clients "
            + "return to the configuration, which is left as it is.")
    static final class Abandon extends CanaryStepCommand {
        @Override
        String done() {
            return "abandoned";
        }

        @Override
        PublishOutcome step(ConfigStore store, long canaryRevision, String author, String comment) throws EtcdException {
            return store.abandon(canaryRevision, author, comment);
        }
    }
}

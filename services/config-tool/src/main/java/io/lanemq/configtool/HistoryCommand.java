package io.lanemq.configtool;

import io.lanemq.config.etcd.EtcdClient;
import io.lanemq.config.etcd.EtcdException;
import io.lanemq.config.store.ConfigStore;
import io.lanemq.config.store.HistoryEntry;
import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "history", mixinStandardHelpOptions = true, description = "Lists the key's history, newest first (who, "
        + "when, what, why), and the pending canary; with --revision, one entry's diff.")
final class HistoryCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    EtcdOptions etcd;

    @Option(names = "--revision", paramLabel = "<revision>", description = "Print this entry's diff.")
    Long revision;

    @Option(names = "--limit", paramLabel = "<n>", defaultValue = "20", description = "At most this many entries (default: ${DEFAULT-VALUE}).")
    int limit;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try (EtcdClient client = etcd.connect()) {
            ConfigStore store = new ConfigStore(client, etcd.key);
            if (revision != null) {
                Optional<HistoryEntry> entry = store.entry(revision);
                if (entry.isEmpty()) {
                    err.println("no revision " + revision + " in the history of " + etcd.key);
                    return ConfigTool.INVALID;
                }
                out.println(line(entry.get()));
                out.println(entry.get().diff());
                return ConfigTool.OK;
            }
            store.canary().ifPresent(pending -> out.println("PENDING " + Canaries.describe(pending, etcd.key)));
            List<HistoryEntry> entries = store.history();
            entries.stream().limit(limit).forEach(entry -> out.println(line(entry)));
            if (entries.size() > limit) {
                out.println("... " + (entries.size() - limit) + " older (--limit)");
            }
            return ConfigTool.OK;
        } catch (EtcdException e) {
            err.println(e.getMessage());
            return ConfigTool.ETCD_FAILED;
        }
    }

    /** {@code 1207  2026-11-28T23:01:00Z  olga  CANARY  canary to instances [a] -- why} */
    private static String line(HistoryEntry entry) {
        return entry.revision() + "  " + entry.at() + "  " + entry.author() + "  " + entry.kind() + "  " + entry.change()
                + " -- " + entry.comment();
    }
}

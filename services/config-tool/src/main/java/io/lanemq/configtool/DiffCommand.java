package io.lanemq.configtool;

import io.lanemq.config.etcd.EtcdClient;
import io.lanemq.config.etcd.EtcdException;
import io.lanemq.config.store.ConfigStore;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "diff", mixinStandardHelpOptions = true, description = "Validates a file, then prints the unified diff "
        + "from what the etcd key holds now to the file: what publish would change. Writes nothing.")
final class DiffCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "<file>", description = "The YAML or JSON document.")
    Path file;

    @Mixin
    EtcdOptions etcd;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        ConfigFile config = ConfigFile.read(file, err);
        if (config == null) {
            return ConfigTool.INVALID;
        }
        try (EtcdClient client = etcd.connect()) {
            LiveComparison comparison = LiveComparison.of(config, new ConfigStore(client, etcd.key));
            print(comparison, spec.commandLine().getOut(), err, etcd.key);
            return ConfigTool.OK;
        } catch (EtcdException e) {
            err.println(e.getMessage());
            return ConfigTool.ETCD_FAILED;
        }
    }

    /** The diff on stdout (so it can be saved as a patch), the verdict on stderr. */
    static void print(LiveComparison comparison, PrintWriter out, PrintWriter err, String key) {
        if (comparison.unchanged()) {
            err.println(comparison.file().path() + " is what etcd key " + key + " holds " + comparison.liveState()
                    + ": no differences");
            return;
        }
        out.println(comparison.diff());
        out.flush();
        err.println(comparison.diff().lines().filter(l -> l.startsWith("-") && !l.startsWith("---")).count() + " lines removed, "
                + comparison.diff().lines().filter(l -> l.startsWith("+") && !l.startsWith("+++")).count()
                + " added against etcd key " + key + " " + comparison.liveState());
    }
}

package io.lanemq.configtool;

import io.lanemq.config.etcd.EtcdClient;
import io.lanemq.config.etcd.EtcdException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "publish", mixinStandardHelpOptions = true, description = "Validates a file, then writes it to an etcd key; an invalid file is never written.")
final class PublishCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "<file>", description = "The YAML or JSON document.")
    Path file;

    @Mixin
    EtcdOptions etcd;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ConfigFile config = ConfigFile.read(file, err);
        if (config == null) {
            err.println("not published: etcd key " + etcd.key + " is unchanged");
            return ConfigTool.INVALID;
        }
        // The file's own text, comments and all: what operators review is what the SDKs read.
        try (EtcdClient client = etcd.connect()) {
            long revision = client.put(etcd.key, config.text());
            out.print("VALID " + file + "\n" + ConfigSummary.of(config.config()));
            out.println("published " + file + " to etcd key " + etcd.key + " on [" + client.describe() + "] at revision " + revision);
            return ConfigTool.OK;
        } catch (EtcdException e) {
            err.println("not published: " + e.getMessage());
            return ConfigTool.ETCD_FAILED;
        }
    }
}

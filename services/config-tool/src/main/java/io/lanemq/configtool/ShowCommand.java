package io.lanemq.configtool;

import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.config.PlatformConfigParser;
import io.lanemq.config.PlatformConfigWriter;
import io.lanemq.config.etcd.EtcdClient;
import io.lanemq.config.etcd.EtcdEntry;
import io.lanemq.config.etcd.EtcdException;
import java.io.PrintWriter;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "show", mixinStandardHelpOptions = true, description = "Prints the document an etcd key holds (its revision goes to stderr, so stdout can be saved as a file).")
final class ShowCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    EtcdOptions etcd;

    @Option(names = "--env", paramLabel = "<environment>", description = "Print what a client of this environment "
            + "resolves (the document's top level with that environment laid over it), as YAML, instead of the document.")
    String environment;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try (EtcdClient client = etcd.connect()) {
            Optional<EtcdEntry> entry = client.get(etcd.key);
            if (entry.isEmpty()) {
                err.println("etcd key " + etcd.key + " does not exist on [" + client.describe() + "]");
                return ConfigTool.INVALID;
            }
            err.println("# etcd key " + etcd.key + " on [" + client.describe() + "], revision " + entry.get().modRevision());
            err.flush();
            if (environment == null) {
                out.print(entry.get().value());
            } else {
                try {
                    out.print(new PlatformConfigWriter().toYaml(new PlatformConfigParser(environment)
                            .parse(entry.get().value(), "etcd key " + etcd.key)));
                } catch (InvalidConfigurationException e) {
                    err.println("INVALID etcd key " + etcd.key + ": " + e.getMessage());
                    return ConfigTool.INVALID;
                }
            }
            out.flush();
            return ConfigTool.OK;
        } catch (EtcdException e) {
            err.println(e.getMessage());
            return ConfigTool.ETCD_FAILED;
        }
    }
}

package io.lanemq.configtool;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "validate", mixinStandardHelpOptions = true, description = "Checks a platform configuration file as the SDK would read it, and summarises it.")
final class ValidateCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "<file>", description = "The YAML or JSON document.")
    Path file;

    @Override
    public Integer call() {
        ConfigFile config = ConfigFile.read(file, spec.commandLine().getErr());
        if (config == null) {
            return ConfigTool.INVALID;
        }
        spec.commandLine().getOut().print("VALID " + file + "\n" + ConfigSummary.of(config.config()));
        return ConfigTool.OK;
    }
}

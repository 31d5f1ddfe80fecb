package io.lanemq.configtool;

import io.lanemq.config.PlatformConfigParser;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "validate", mixinStandardHelpOptions = true, description = "Checks a platform configuration file as the SDK would read it, and summarises it.")
final class ValidateCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "<file>", description = "The YAML or JSON document.")
    Path file;

    @Option(names = "--env", paramLabel = "<environment>", defaultValue = "default",
            description = "Summarise what a client of this environment resolves (default: the document's top level).")
    String environment;

    @Override
    public Integer call() {
        ConfigFile config = ConfigFile.read(file, spec.commandLine().getErr(), new PlatformConfigParser(environment));
        if (config == null) {
            return ConfigTool.INVALID;
        }
        spec.commandLine().getOut().print("VALID " + file + ("default".equals(environment) ? "" : " (environment "
                + environment + ")") + "\n" + ConfigSummary.of(config.config()));
        return ConfigTool.OK;
    }
}

package io.lanemq.config;

import io.lanemq.api.InvalidConfigurationException;
import java.util.List;
import java.util.stream.Collectors;

/** The configuration was rejected; {@link #problems()} lists every reason, each naming its key. */
public class InvalidPlatformConfigException extends InvalidConfigurationException {
    private final transient List<ConfigProblem> problems;

    public InvalidPlatformConfigException(String source, List<ConfigProblem> problems) {
        super("invalid platform configuration from " + source + ": "
                + problems.stream().map(ConfigProblem::toString).collect(Collectors.joining("; ")));
        this.problems = List.copyOf(problems);
    }

    public List<ConfigProblem> problems() {
        return problems;
    }
}

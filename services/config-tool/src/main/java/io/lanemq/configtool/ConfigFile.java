package io.lanemq.configtool;

import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.config.ConfigProblem;
import io.lanemq.config.InvalidPlatformConfigException;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.PlatformConfigParser;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** A configuration file read and validated exactly as the SDK will read it; problems printed one per line. */
record ConfigFile(Path path, String text, PlatformConfig config) {

    /** Returns null after printing why the file cannot be used. */
    static ConfigFile read(Path path, PrintWriter err) {
        return read(path, err, new PlatformConfigParser());
    }

    /** As {@link #read(Path, PrintWriter)}, resolved for the parser's environment. */
    static ConfigFile read(Path path, PrintWriter err, PlatformConfigParser parser) {
        String text;
        try {
            text = Files.readString(path, StandardCharsets.UTF_8);
        } catch (IOException e) {
            err.println("cannot read " + path + ": " + e);
            return null;
        }
        try {
            return new ConfigFile(path, text, parser.parse(text, path.toString()));
        } catch (InvalidPlatformConfigException e) {
            err.println("INVALID " + path + " (" + e.problems().size() + (e.problems().size() == 1 ? " problem" : " problems") + "):");
            for (ConfigProblem problem : e.problems()) {
                err.println("  " + problem);
            }
            return null;
        } catch (InvalidConfigurationException e) {
            err.println("INVALID " + path + ": " + e.getMessage());
            return null;
        }
    }
}

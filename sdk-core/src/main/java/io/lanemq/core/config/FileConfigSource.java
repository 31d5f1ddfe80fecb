package io.lanemq.core.config;

import io.lanemq.api.InvalidConfigurationException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** A configuration file on local disk, YAML or JSON. */
public final class FileConfigSource implements ConfigSource {
    private final Path path;
    private final PlatformConfigParser parser;

    public FileConfigSource(Path path, PlatformConfigParser parser) {
        this.path = path.toAbsolutePath().normalize();
        this.parser = parser;
    }

    @Override
    public PlatformConfig load() throws InvalidConfigurationException {
        String text;
        try {
            text = Files.readString(path, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new InvalidConfigurationException("cannot read platform configuration " + describe() + ": " + e, e);
        }
        return parser.parse(text, describe());
    }

    @Override
    public String describe() {
        return "file:" + path;
    }
}

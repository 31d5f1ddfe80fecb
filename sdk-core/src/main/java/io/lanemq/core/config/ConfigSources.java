package io.lanemq.core.config;

import io.lanemq.api.InvalidConfigurationException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;

/** Turns a {@code configLocation} from the client options into a {@link ConfigSource}. */
public final class ConfigSources {
    private ConfigSources() {
    }

    /**
     * @param location {@code file:/path}, or a plain path read as a file
     * @throws InvalidConfigurationException the scheme is not one this SDK knows
     */
    public static ConfigSource open(String location) throws InvalidConfigurationException {
        PlatformConfigParser parser = new PlatformConfigParser();
        if (!location.contains(":") || location.matches("[A-Za-z]:[\\\\/].*")) {
            return new FileConfigSource(Path.of(location), parser);
        }
        URI uri;
        try {
            uri = new URI(location);
        } catch (URISyntaxException e) {
            throw new InvalidConfigurationException("configLocation is not a valid URI: '" + location + "': " + e.getReason(), e);
        }
        if ("file".equalsIgnoreCase(uri.getScheme())) {
            return new FileConfigSource(Path.of(uri.isOpaque() ? uri.getSchemeSpecificPart() : uri.getPath()), parser);
        }
        throw new InvalidConfigurationException("configLocation scheme '" + uri.getScheme()
                + "' is not supported; use file:/path/to/platform.yaml");
    }
}

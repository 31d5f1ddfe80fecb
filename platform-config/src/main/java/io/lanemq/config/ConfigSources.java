package io.lanemq.config;

import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.config.etcd.EtcdClient;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;

/** Turns a {@code configLocation} from the client options into a {@link ConfigSource}. */
public final class ConfigSources {
    private static final String ETCD_PREFIX = "etcd://";

    private ConfigSources() {
    }

    /**
     * @param location {@code file:/path}, a plain path read as a file, or
     *                 {@code etcd://host:port[,host:port...]/key}, the key holding the whole document
     *                 (e.g. {@code etcd://127.0.0.1:2379/lanemq/platform/prod}: key {@code /lanemq/platform/prod})
     * @throws InvalidConfigurationException the scheme is not one this SDK knows, or the location is malformed
     */
    public static ConfigSource open(String location) throws InvalidConfigurationException {
        PlatformConfigParser parser = new PlatformConfigParser();
        if (location.regionMatches(true, 0, ETCD_PREFIX, 0, ETCD_PREFIX.length())) {
            return openEtcd(location, parser);
        }
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
                + "' is not supported; use file:/path/to/platform.yaml or etcd://host:port/key");
    }

    /** Parsed by hand: java.net.URI takes a comma-separated endpoint list for a registry name, not a host. */
    private static ConfigSource openEtcd(String location, PlatformConfigParser parser) throws InvalidConfigurationException {
        String rest = location.substring(ETCD_PREFIX.length());
        int slash = rest.indexOf('/');
        if (slash <= 0 || slash == rest.length() - 1) {
            throw new InvalidConfigurationException("configLocation '" + location
                    + "' needs endpoints and a key: etcd://host:port[,host:port...]/key/path");
        }
        if (rest.contains("?") || rest.contains("#")) {
            throw new InvalidConfigurationException("configLocation '" + location + "': etcd locations take no query or fragment");
        }
        EtcdClient client;
        try {
            client = EtcdClient.builder(rest.substring(0, slash)).build();
        } catch (IllegalArgumentException e) {
            throw new InvalidConfigurationException("configLocation '" + location + "': " + e.getMessage(), e);
        }
        return new EtcdConfigSource(client, rest.substring(slash), parser);
    }
}

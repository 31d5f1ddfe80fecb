package io.lanemq.config;

import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.config.etcd.EtcdClient;
import io.lanemq.config.etcd.EtcdSecurity;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** Turns a {@code configLocation} from the client options into a {@link ConfigSource}. */
public final class ConfigSources {
    private static final String ETCD_PREFIX = "etcd://";
    public static final String ENVIRONMENT_PROPERTY = "lanemq.environment";
    public static final String ENVIRONMENT_VARIABLE = "LANEMQ_ENVIRONMENT";

    private ConfigSources() {
    }

    /**
     * @param location {@code file:/path}, a plain path read as a file, or
     *                 {@code etcd://host:port[,host:port...]/key[?setting=value&...]}, the key holding the whole
     *                 document (e.g. {@code etcd://127.0.0.1:2379/lanemq/platform/prod}: key
     *                 {@code /lanemq/platform/prod}), with the TLS and user settings of {@link EtcdSecurity}:
     *                 {@code etcd://10.0.0.1:2379/lanemq/platform/prod?cacert=/etc/lanemq/etcd-ca.pem&user=sdk&passwordFile=/run/secrets/etcd}.
     *                 Without TLS settings only loopback endpoints are accepted (plaintext is for tests); a password
     *                 is never part of the location, only the file or environment variable that holds it
     * @throws InvalidConfigurationException the scheme is not one this SDK knows, or the location is malformed
     */
    public static ConfigSource open(String location) throws InvalidConfigurationException {
        return open(location, Optional.empty());
    }

    /**
     * As {@link #open(String)}, resolving the document for {@code environment}, or when empty for the environment the
     * deployment names: system property {@value #ENVIRONMENT_PROPERTY}, else environment variable
     * {@value #ENVIRONMENT_VARIABLE}, else the document's top level.
     */
    public static ConfigSource open(String location, Optional<String> environment) throws InvalidConfigurationException {
        return open(location, environment, ConfigSnapshotStore.deploymentDirectory());
    }

    /**
     * As {@link #open(String, Optional)}, keeping the snapshots of an etcd source in {@code snapshotDirectory} (see
     * {@link EtcdConfigSource}); empty: no snapshot is kept, and a start without etcd fails. {@link #open(String)} and
     * {@link #open(String, Optional)} use {@link ConfigSnapshotStore#deploymentDirectory()}. A file source keeps none:
     * the file is local already.
     */
    public static ConfigSource open(String location, Optional<String> environment, Optional<Path> snapshotDirectory)
            throws InvalidConfigurationException {
        return open(location, environment, snapshotDirectory, Optional.empty());
    }

    /**
     * As {@link #open(String, Optional, Optional)}, for the client {@code identity}: a canary published beside the
     * configuration ({@link Canary}) that chooses it is what the source delivers. Empty: never chosen.
     */
    public static ConfigSource open(String location, Optional<String> environment, Optional<Path> snapshotDirectory,
                                    Optional<ClientIdentity> identity) throws InvalidConfigurationException {
        PlatformConfigParser parser = new PlatformConfigParser(environment.orElseGet(ConfigSources::deploymentEnvironment));
        if (location.regionMatches(true, 0, ETCD_PREFIX, 0, ETCD_PREFIX.length())) {
            return openEtcd(location, parser, snapshotDirectory.map(ConfigSnapshotStore::new), identity);
        }
        if (!location.contains(":") || location.matches("[A-Za-z]:[\\\\/].*")) {
            return new FileConfigSource(Path.of(location), parser, FileConfigSource.DEFAULT_RECHECK, identity);
        }
        URI uri;
        try {
            uri = new URI(location);
        } catch (URISyntaxException e) {
            throw new InvalidConfigurationException("configLocation is not a valid URI: '" + location + "': " + e.getReason(), e);
        }
        if ("file".equalsIgnoreCase(uri.getScheme())) {
            return new FileConfigSource(Path.of(uri.isOpaque() ? uri.getSchemeSpecificPart() : uri.getPath()), parser,
                    FileConfigSource.DEFAULT_RECHECK, identity);
        }
        throw new InvalidConfigurationException("configLocation scheme '" + uri.getScheme()
                + "' is not supported; use file:/path/to/platform.yaml or etcd://host:port/key");
    }

    /** The environment this process's deployment names, or the document's top level. */
    public static String deploymentEnvironment() {
        String named = System.getProperty(ENVIRONMENT_PROPERTY);
        if (named == null || named.isBlank()) {
            named = System.getenv(ENVIRONMENT_VARIABLE);
        }
        return named == null || named.isBlank() ? Environments.DEFAULT : named.strip();
    }

    /** Parsed by hand: java.net.URI takes a comma-separated endpoint list for a registry name, not a host. */
    private static ConfigSource openEtcd(String given, PlatformConfigParser parser, Optional<ConfigSnapshotStore> snapshots,
                                         Optional<ClientIdentity> identity) throws InvalidConfigurationException {
        // Only a mistaken location holds a password, and it is refused; its message must not repeat it.
        String location = given.replaceAll("(?i)([?&]password=)[^&]*", "$1***");
        String rest = location.substring(ETCD_PREFIX.length());
        int slash = rest.indexOf('/');
        if (slash <= 0 || slash == rest.length() - 1) {
            throw new InvalidConfigurationException("configLocation '" + location
                    + "' needs endpoints and a key: etcd://host:port[,host:port...]/key/path");
        }
        if (rest.contains("#")) {
            throw new InvalidConfigurationException("configLocation '" + location + "': etcd locations take no fragment");
        }
        int question = rest.indexOf('?');
        String key = question < 0 ? rest.substring(slash) : rest.substring(slash, Math.max(slash, question));
        if (question >= 0 && question < slash || key.length() <= 1) {
            throw new InvalidConfigurationException("configLocation '" + location + "' needs endpoints and a key before the '?'");
        }
        EtcdClient client;
        try {
            String query = given.substring(ETCD_PREFIX.length()).substring(question + 1);
            EtcdSecurity security = EtcdSecurity.parse(settings(question < 0 ? "" : query),
                    name -> "'" + name + "'");
            client = EtcdClient.builder(rest.substring(0, slash)).security(security).build();
        } catch (IllegalArgumentException e) {
            throw new InvalidConfigurationException("configLocation '" + location + "': " + e.getMessage(), e);
        }
        return new EtcdConfigSource(client, key, parser, snapshots, identity);
    }

    /** {@code a=1&b=2}, values URL-decoded (a path may hold a space as {@code %20}). */
    private static Map<String, String> settings(String query) {
        Map<String, String> settings = new LinkedHashMap<>();
        if (query.isEmpty()) {
            return settings;
        }
        for (String pair : query.split("&", -1)) {
            int equals = pair.indexOf('=');
            if (equals <= 0) {
                throw new IllegalArgumentException("setting '" + pair + "' is not name=value");
            }
            String name = pair.substring(0, equals);
            String value = URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8);
            if (settings.put(name, value) != null) {
                throw new IllegalArgumentException("setting '" + name + "' is given twice");
            }
        }
        return settings;
    }
}

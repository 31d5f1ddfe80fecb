package io.lanemq.api.spi;

import io.lanemq.api.InvalidConfigurationException;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Properties;
import java.util.function.Function;

/**
 * Where a cluster's access key and secret key live: never the keys themselves, so the platform configuration, which
 * every application, console user and log can read, holds no secret. Resolved by the binding when it connects, in
 * the process that connects, with {@link #resolve}.
 *
 * <ul>
 *   <li>{@link Environment}: two environment variables, one with the access key, one with the secret key;</li>
 *   <li>{@link SecretFile}: a properties file with {@code accessKey} and {@code secretKey} (a mounted Kubernetes
 *       Secret, a file readable by the service's user only).</li>
 * </ul>
 */
public sealed interface ClusterCredentials {

    /** The keys, read now from where this reference says; {@code environment} is {@link System#getenv(String)} outside tests. */
    AccessKeys resolve(String cluster, Function<String, String> environment) throws InvalidConfigurationException;

    /** The keys in the environment variables {@code accessKeyVariable} and {@code secretKeyVariable}. */
    record Environment(String accessKeyVariable, String secretKeyVariable) implements ClusterCredentials {
        public Environment {
            Objects.requireNonNull(accessKeyVariable, "accessKeyVariable");
            Objects.requireNonNull(secretKeyVariable, "secretKeyVariable");
        }

        @Override
        public AccessKeys resolve(String cluster, Function<String, String> environment)
                throws InvalidConfigurationException {
            return new AccessKeys(variable(cluster, environment, accessKeyVariable, "access key"),
                    variable(cluster, environment, secretKeyVariable, "secret key"));
        }

        private static String variable(String cluster, Function<String, String> environment, String name, String what)
                throws InvalidConfigurationException {
            String value = environment.apply(name);
            if (value == null || value.isBlank()) {
                throw new InvalidConfigurationException("the " + what + " of cluster '" + cluster
                        + "' is read from the environment variable " + name + ", which is "
                        + (value == null ? "not set" : "empty") + " in this process");
            }
            return value.strip();
        }
    }

    /** The keys in a properties file: {@code accessKey=...} and {@code secretKey=...}. */
    record SecretFile(Path path) implements ClusterCredentials {
        public static final String ACCESS_KEY = "accessKey";
        public static final String SECRET_KEY = "secretKey";

        public SecretFile {
            Objects.requireNonNull(path, "path");
        }

        @Override
        public AccessKeys resolve(String cluster, Function<String, String> environment)
                throws InvalidConfigurationException {
            Properties keys = new Properties();
            try (Reader in = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
                keys.load(in);
            } catch (IOException | IllegalArgumentException e) {
                // The exception's text is the path and the reason only; properties are never echoed.
                throw new InvalidConfigurationException("cannot read the credentials file " + path + " of cluster '"
                        + cluster + "': " + e.getClass().getSimpleName(), e);
            }
            return new AccessKeys(key(cluster, keys, ACCESS_KEY), key(cluster, keys, SECRET_KEY));
        }

        private String key(String cluster, Properties keys, String name) throws InvalidConfigurationException {
            String value = keys.getProperty(name);
            if (value == null || value.isBlank()) {
                throw new InvalidConfigurationException("the credentials file " + path + " of cluster '" + cluster
                        + "' has no " + name + " (it needs the lines accessKey=... and secretKey=...)");
            }
            return value.strip();
        }
    }

    /**
     * An access key and its secret key, resolved. {@link #toString()} names the access key only, so logging one
     * (or a record holding one) never prints the secret.
     */
    record AccessKeys(String accessKey, String secretKey) {
        public AccessKeys {
            Objects.requireNonNull(accessKey, "accessKey");
            Objects.requireNonNull(secretKey, "secretKey");
        }

        @Override
        public String toString() {
            return "AccessKeys[accessKey=" + accessKey + ", secretKey=(hidden)]";
        }
    }
}

package io.lanemq.config;

import io.lanemq.api.spi.ClusterCredentials;
import java.nio.file.Path;

/**
 * A cluster's {@code credentials} section as written: where its access key and secret key live, either two
 * environment variables ({@code accessKeyEnv}, {@code secretKeyEnv}) or a properties file ({@code file}). The
 * validator checks that exactly one form is given; nulls stand for absent keys.
 */
public record CredentialsRef(String accessKeyEnv, String secretKeyEnv, String file) {

    /** A reference to two environment variables. */
    public static CredentialsRef environment(String accessKeyEnv, String secretKeyEnv) {
        return new CredentialsRef(accessKeyEnv, secretKeyEnv, null);
    }

    /** A reference to a properties file with {@code accessKey=} and {@code secretKey=}. */
    public static CredentialsRef file(String file) {
        return new CredentialsRef(null, null, file);
    }

    /** The binding's view of a valid reference. */
    ClusterCredentials toCredentials() {
        return file != null ? new ClusterCredentials.SecretFile(Path.of(file))
                : new ClusterCredentials.Environment(accessKeyEnv, secretKeyEnv);
    }
}

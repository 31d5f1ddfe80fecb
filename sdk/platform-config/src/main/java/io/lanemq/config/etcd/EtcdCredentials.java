package io.lanemq.config.etcd;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.Function;

/**
 * An etcd user and where its password is kept: a file (e.g. a mounted secret) or an environment variable. The
 * password itself is never a setting, never in a config location and never in a message: it is read each time the
 * client authenticates, so a rotated secret file is picked up at the next authentication. Immutable.
 *
 * <pre>{@code
 * EtcdCredentials.passwordFile("lanemq-sdk", Path.of("/run/secrets/etcd-password"));
 * EtcdCredentials.passwordEnv("lanemq-sdk", "LANEMQ_ETCD_PASSWORD");
 * }</pre>
 */
public final class EtcdCredentials {
    private final String user;
    private final Path passwordFile;
    private final String passwordEnv;
    private final Function<String, String> environment;

    private EtcdCredentials(String user, Path passwordFile, String passwordEnv, Function<String, String> environment) {
        if (user == null || user.isBlank()) {
            throw new IllegalArgumentException("etcd user is empty");
        }
        this.user = user;
        this.passwordFile = passwordFile;
        this.passwordEnv = passwordEnv;
        this.environment = environment;
        password(); // fails now, naming the file or variable, rather than at the first authentication
    }

    /** The password is the content of {@code file} (one trailing line break ignored). */
    public static EtcdCredentials passwordFile(String user, Path file) {
        return new EtcdCredentials(user, Objects.requireNonNull(file, "passwordFile"), null, System::getenv);
    }

    /** The password is the value of the environment variable {@code variable}. */
    public static EtcdCredentials passwordEnv(String user, String variable) {
        return passwordEnv(user, variable, System::getenv);
    }

    /** As {@link #passwordEnv(String, String)}, reading variables through {@code environment} (tests). */
    public static EtcdCredentials passwordEnv(String user, String variable, Function<String, String> environment) {
        if (variable == null || variable.isBlank()) {
            throw new IllegalArgumentException("etcd password environment variable name is empty");
        }
        return new EtcdCredentials(user, null, variable, environment);
    }

    public String user() {
        return user;
    }

    /** Reads the password now; the message of a failure names the file or variable, never a password. */
    String password() {
        if (passwordFile != null) {
            String text;
            try {
                text = Files.readString(passwordFile, StandardCharsets.UTF_8);
            } catch (IOException | RuntimeException e) {
                throw new IllegalArgumentException("etcd password file " + passwordFile + " of user '" + user + "' is not readable: " + e, e);
            }
            text = text.endsWith("\r\n") ? text.substring(0, text.length() - 2) : text.endsWith("\n") ? text.substring(0, text.length() - 1) : text;
            if (text.isEmpty()) {
                throw new IllegalArgumentException("etcd password file " + passwordFile + " of user '" + user + "' is empty");
            }
            return text;
        }
        String value = environment.apply(passwordEnv);
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException("environment variable " + passwordEnv + " (etcd password of user '" + user + "') is not set");
        }
        return value;
    }

    /** User and password source, never the password. */
    @Override
    public String toString() {
        return "user '" + user + "' (password from " + (passwordFile != null ? "file " + passwordFile : "environment variable " + passwordEnv) + ")";
    }
}

package io.lanemq.config.etcd;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The TLS and authentication settings of an etcd connection, read from named settings: one place that validates
 * them for every front end (the {@code etcd://} config location's query, the config tool's options, the console's
 * properties), each front end passing how it spells a setting so that a message names what the operator typed.
 *
 * <table>
 *   <caption>Settings</caption>
 *   <tr><td>{@code tls}</td><td>{@code true}: TLS trusting the JVM's CAs (implied by {@code cacert}, {@code cert})</td></tr>
 *   <tr><td>{@code cacert}</td><td>PEM file of the CA that signed etcd's certificate</td></tr>
 *   <tr><td>{@code cert}, {@code certKey}</td><td>PEM client certificate and its PKCS#8 key (mutual TLS)</td></tr>
 *   <tr><td>{@code user}</td><td>etcd user; with exactly one of {@code passwordFile} (a file holding the password)
 *       or {@code passwordEnv} (the name of an environment variable holding it)</td></tr>
 * </table>
 *
 * <p>A password itself is never a setting. Without TLS, {@link EtcdClient} accepts loopback endpoints only.
 *
 * @param tls         empty: plaintext (loopback endpoints only)
 * @param credentials empty: no etcd authentication (or by client certificate alone)
 */
public record EtcdSecurity(Optional<EtcdTls> tls, Optional<EtcdCredentials> credentials) {
    /** Plaintext, no user: for an etcd on loopback in a test. */
    public static final EtcdSecurity NONE = new EtcdSecurity(Optional.empty(), Optional.empty());
    /** The names {@link #parse} knows, as this class spells them. */
    public static final List<String> SETTINGS = List.of("tls", "cacert", "cert", "certKey", "user", "passwordFile", "passwordEnv");

    /**
     * @param settings values by this class's names ({@link #SETTINGS}); null or absent: not set
     * @param spelling how the caller's front end spells a setting, for messages (e.g. {@code certKey -> --cert-key})
     * @throws IllegalArgumentException naming the setting (as the front end spells it) that is unknown, malformed,
     *                                  missing its partner or in conflict
     */
    public static EtcdSecurity parse(Map<String, String> settings, UnaryOperator<String> spelling) {
        Map<String, String> given = new LinkedHashMap<>();
        for (Map.Entry<String, String> setting : settings.entrySet()) {
            String name = setting.getKey();
            if (name.equalsIgnoreCase("password")) {
                throw new IllegalArgumentException(spelling.apply(name) + ": an etcd password is never a setting; name a file ("
                        + spelling.apply("passwordFile") + ") or an environment variable (" + spelling.apply("passwordEnv") + ") that holds it");
            }
            if (!SETTINGS.contains(name)) {
                throw new IllegalArgumentException("unknown etcd setting " + spelling.apply(name) + "; known: "
                        + String.join(", ", SETTINGS.stream().map(spelling).toList()));
            }
            if (setting.getValue() == null) {
                continue;
            }
            if (setting.getValue().isBlank()) {
                throw new IllegalArgumentException(spelling.apply(name) + " is empty");
            }
            given.put(name, setting.getValue().strip());
        }
        return new EtcdSecurity(tls(given, spelling), credentials(given, spelling));
    }

    private static Optional<EtcdTls> tls(Map<String, String> given, UnaryOperator<String> spelling) {
        String flag = given.get("tls");
        if (flag != null && !flag.equals("true") && !flag.equals("false")) {
            throw new IllegalArgumentException(spelling.apply("tls") + " must be true or false, was '" + flag + "'");
        }
        boolean files = given.containsKey("cacert") || given.containsKey("cert") || given.containsKey("certKey");
        if ("false".equals(flag) && files) {
            throw new IllegalArgumentException(spelling.apply("tls") + "=false contradicts the TLS files given ("
                    + spelling.apply("cacert") + ", " + spelling.apply("cert") + ", " + spelling.apply("certKey") + ")");
        }
        if (!files && !"true".equals(flag)) {
            return Optional.empty();
        }
        if (given.containsKey("cert") != given.containsKey("certKey")) {
            String missing = given.containsKey("cert") ? "certKey" : "cert";
            String present = given.containsKey("cert") ? "cert" : "certKey";
            throw new IllegalArgumentException(spelling.apply(present) + " needs " + spelling.apply(missing) + " (mutual TLS takes a certificate and its key)");
        }
        Optional<Path> ca = path(given, "cacert", spelling);
        Optional<Path> cert = path(given, "cert", spelling);
        Optional<Path> key = path(given, "certKey", spelling);
        try {
            return Optional.of(new EtcdTls(ca, cert, key));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() + " (" + spelling.apply("cacert") + ", " + spelling.apply("cert")
                    + ", " + spelling.apply("certKey") + ")", e);
        }
    }

    private static Optional<Path> path(Map<String, String> given, String name, UnaryOperator<String> spelling) {
        String value = given.get(name);
        if (value == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(Path.of(value));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(spelling.apply(name) + " is not a path: '" + value + "'", e);
        }
    }

    private static Optional<EtcdCredentials> credentials(Map<String, String> given, UnaryOperator<String> spelling) {
        String user = given.get("user");
        String file = given.get("passwordFile");
        String env = given.get("passwordEnv");
        if (user == null) {
            if (file != null || env != null) {
                throw new IllegalArgumentException(spelling.apply(file != null ? "passwordFile" : "passwordEnv")
                        + " needs " + spelling.apply("user"));
            }
            return Optional.empty();
        }
        if ((file == null) == (env == null)) {
            throw new IllegalArgumentException(spelling.apply("user") + " needs exactly one of " + spelling.apply("passwordFile")
                    + " or " + spelling.apply("passwordEnv") + (file == null ? ", got neither" : ", got both"));
        }
        try {
            return Optional.of(file != null ? EtcdCredentials.passwordFile(user, path(given, "passwordFile", spelling).orElseThrow())
                    : EtcdCredentials.passwordEnv(user, env));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(spelling.apply(file != null ? "passwordFile" : "passwordEnv") + ": " + e.getMessage(), e);
        }
    }

    /** For messages: TLS and user, never a password. */
    public String describe() {
        return tls.map(EtcdTls::describe).orElse("plaintext") + credentials.map(c -> ", user '" + c.user() + "'").orElse("");
    }
}

package io.lanemq.console;

import io.lanemq.config.etcd.EtcdClient;
import io.lanemq.testkit.etcd.EtcdServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.springframework.boot.web.servlet.context.ServletWebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;

/**
 * A console on 127.0.0.1 (port 0, plain HTTP on loopback) over a real etcd, with three users: olga (operator),
 * erik (editor of the checkout application: topic order-paid, group billing) and vera (viewer).
 */
final class ConsoleFixture implements AutoCloseable {
    /** One password for every test user, new each run; only its bcrypt hash is written. */
    static final String PASSWORD = UUID.randomUUID().toString();

    final EtcdServer etcd;
    final EtcdClient client;
    final String key;
    private final ConfigurableApplicationContext context;
    private final Path directory;

    private ConsoleFixture(EtcdServer etcd, String key, String initialYaml, List<String> extraArgs,
                           java.util.function.UnaryOperator<String> environment) throws IOException {
        this(etcd, key, initialYaml, extraArgs, environment, () -> { });
    }

    /** @param beforeStart runs once etcd is seeded, before the console starts (stopping etcd, say) */
    private ConsoleFixture(EtcdServer etcd, String key, String initialYaml, List<String> extraArgs,
                           java.util.function.UnaryOperator<String> environment, Runnable beforeStart) throws IOException {
        this.etcd = etcd;
        this.key = key;
        this.client = EtcdClient.builder(etcd.endpoint()).build();
        this.directory = Files.createTempDirectory("console-it");
        try {
            client.put(key, initialYaml);
        } catch (Exception e) {
            throw new IllegalStateException("cannot seed " + key, e);
        }
        String hash = new BCryptPasswordEncoder(4).encode(PASSWORD);
        Path users = directory.resolve("users.yaml");
        Files.writeString(users, String.join("\n",
                "users:",
                "  olga: { passwordHash: \"" + hash + "\", role: OPERATOR }",
                "  erik: { passwordHash: \"" + hash + "\", role: EDITOR, applications: [checkout] }",
                "  vera: { passwordHash: \"" + hash + "\", role: VIEWER }",
                "applications:",
                "  checkout: { topics: [order-paid], groups: [billing] }",
                "  payments: { topics: [refund], groups: [ledger] }", ""));
        List<String> args = new ArrayList<>(List.of("--server.port=0",
                "--lanemq.console.etcd-endpoints=" + etcd.endpoint(), "--lanemq.console.config-key=" + key,
                "--lanemq.console.users-file=" + users, "--lanemq.console.http-address=127.0.0.1:0", "--logging.level.root=WARN"));
        args.addAll(extraArgs);
        beforeStart.run();
        this.context = ConsoleApplication.application(environment).run(args.toArray(String[]::new));
    }

    static ConsoleFixture start(EtcdServer etcd, String key, String initialYaml, String... extraArgs) {
        try {
            List<String> args = new ArrayList<>(List.of("--lanemq.console.plaintext=true"));
            args.addAll(List.of(extraArgs));
            return new ConsoleFixture(etcd, key, initialYaml, args, name -> null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A plain-HTTP console started after {@code beforeStart} ran on the seeded etcd. */
    static ConsoleFixture startAfter(Runnable beforeStart, EtcdServer etcd, String key, String initialYaml) {
        try {
            return new ConsoleFixture(etcd, key, initialYaml, List.of("--lanemq.console.plaintext=true"), name -> null, beforeStart);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A console serving HTTPS with {@code keyStore}, its password in the environment variable {@code passwordVariable}. */
    static ConsoleFixture startTls(EtcdServer etcd, String key, String initialYaml, Path keyStore, String passwordVariable,
                                   String password) {
        try {
            return new ConsoleFixture(etcd, key, initialYaml, List.of("--lanemq.console.tls-key-store=" + keyStore,
                    "--lanemq.console.tls-key-store-password-env=" + passwordVariable),
                    name -> name.equals(passwordVariable) ? password : null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    int port() {
        return ((ServletWebServerApplicationContext) context).getWebServer().getPort();
    }

    /** The operations endpoints' base ({@code /livez}, {@code /readyz}, {@code /metrics}). */
    URI operations() {
        java.net.InetSocketAddress address = context.getBean(io.lanemq.service.http.ServiceEndpoints.class).address();
        return URI.create("http://127.0.0.1:" + address.getPort());
    }

    URI base() {
        return URI.create("http://127.0.0.1:" + port());
    }

    String published() throws Exception {
        return client.get(key).orElseThrow().value();
    }

    long revision() throws Exception {
        return client.get(key).orElseThrow().modRevision();
    }

    @Override
    public void close() throws IOException {
        context.close();
        client.close();
        try (var files = Files.walk(directory)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}

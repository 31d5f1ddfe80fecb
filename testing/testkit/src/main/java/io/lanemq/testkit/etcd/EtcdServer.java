package io.lanemq.testkit.etcd;

import io.lanemq.testkit.TestkitException;
import io.lanemq.testkit.tls.SelfSignedCertificate;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A real single-member etcd (the {@code etcd} binary of Debian's {@code etcd-server} package) on free loopback
 * ports with a temporary data directory, for integration tests.
 *
 * <p>etcd runs under a small {@code sh} wrapper whose standard input is a pipe from this JVM: when the pipe
 * closes, because {@link #stop()} closed it or because this JVM died however it died, the wrapper stops etcd
 * with SIGTERM, so no etcd outlives its test. (The testkit's broker children watch their stdin themselves; etcd
 * cannot, hence the wrapper.) The wrapper exits with etcd, so a failed start is seen at once.
 *
 * <p>{@link #stop()} / {@link #kill()} then {@link #start()} restart it on the same ports and data, as a restart
 * test needs. {@link #put}, {@link #get}, {@link #delete} and {@link #compact} go through etcd's own JSON gateway,
 * independent of the SDK's client under test. Not thread-safe; {@link #close()} stops it and deletes its directory.
 *
 * <p>{@link #builder()} starts it secured as production etcd is: TLS with a test certificate, client certificates
 * required (mutual TLS), or users (etcd's auth enabled, with a root user; {@link #addUser} adds one limited to a key
 * prefix). The testkit's own calls then use the same TLS and log in as root.
 *
 * <pre>{@code
 * try (EtcdServer etcd = EtcdServer.started()) {
 *     etcd.put("/lanemq/platform/test", yaml);
 *     ConfigSource source = ConfigSources.open("etcd://" + etcd.endpoint() + "/lanemq/platform/test");
 * }
 * }</pre>
 */
public final class EtcdServer implements AutoCloseable {
    /** System property naming the etcd binary, when it is neither on the PATH nor in /usr/bin. */
    public static final String BINARY_PROPERTY = "lanemq.testkit.etcd";

    private static final Duration START_BUDGET = Duration.ofSeconds(20);
    private static final Duration STOP_BUDGET = Duration.ofSeconds(10);
    private static final int LOWEST_PORT = 15_000;
    /** Stops etcd when stdin reaches end of file; exits with etcd. */
    private static final String WRAPPER = String.join("\n",
            "exec 3<&0",
            "\"$@\" </dev/null 3<&- &",
            "child=$!",
            "( while IFS= read -r _; do :; done; kill -TERM \"$child\" 2>/dev/null ) <&3 &",
            "watcher=$!",
            "exec 3<&-",
            "wait \"$child\"",
            "status=$?",
            "kill \"$watcher\" 2>/dev/null",
            "exit $status");

    private final Path binary;
    private final Path directory;
    private final Path dataDir;
    private final Path logFile;
    private final int clientPort;
    private final int peerPort;
    private final HttpClient http;
    private final SelfSignedCertificate serverCertificate;
    private final SelfSignedCertificate trustedClient;
    private final String rootPassword;
    private boolean authEnabled;
    private Process wrapper;
    private long logOffset;

    /**
     * Chooses free ports and a temporary directory; {@link #start()} launches etcd.
     *
     * @throws TestkitException no etcd binary: run {@code bin/setup-tools}, which installs Debian's etcd-server
     */
    public EtcdServer() {
        this(new Builder());
    }

    private EtcdServer(Builder builder) {
        this.serverCertificate = builder.serverCertificate;
        this.trustedClient = builder.trustedClient;
        this.rootPassword = builder.rootPassword;
        this.binary = findBinary();
        try {
            this.directory = Files.createTempDirectory("lanemq-etcd-");
        } catch (IOException e) {
            throw new TestkitException("cannot create a directory for etcd: " + e.getMessage(), e);
        }
        this.dataDir = directory.resolve("data");
        this.logFile = directory.resolve("etcd.log");
        this.clientPort = freePort(-1);
        this.peerPort = freePort(clientPort);
        HttpClient.Builder http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).version(HttpClient.Version.HTTP_1_1);
        if (serverCertificate != null) {
            http.sslContext(sslContext(serverCertificate, trustedClient));
        }
        this.http = http.build();
    }

    /** A server to be secured: {@code EtcdServer.builder().tls(cert).authentication("pw").started()}. */
    public static Builder builder() {
        return new Builder();
    }

    /** How a secured etcd is started. Not thread-safe. */
    public static final class Builder {
        private SelfSignedCertificate serverCertificate;
        private SelfSignedCertificate trustedClient;
        private String rootPassword;

        private Builder() {
        }

        /** Serves TLS only ({@code https}) with this certificate, which clients trust as their CA. */
        public Builder tls(SelfSignedCertificate server) {
            this.serverCertificate = server;
            return this;
        }

        /** Requires a client certificate ({@code --client-cert-auth}) and trusts this one alone; needs {@link #tls}. */
        public Builder clientCertificateAuth(SelfSignedCertificate client) {
            this.trustedClient = client;
            return this;
        }

        /** Enables etcd's authentication after the first start, with user {@code root} having this password. */
        public Builder authentication(String rootPassword) {
            this.rootPassword = rootPassword;
            return this;
        }

        public EtcdServer build() {
            if (trustedClient != null && serverCertificate == null) {
                throw new IllegalArgumentException("clientCertificateAuth needs tls");
            }
            return new EtcdServer(this);
        }

        /** {@link #build()}, then {@link EtcdServer#start()}. */
        public EtcdServer started() {
            return EtcdServer.started(build());
        }
    }

    private static SSLContext sslContext(SelfSignedCertificate server, SelfSignedCertificate client) {
        try (InputStream pem = Files.newInputStream(server.certificatePem())) {
            KeyStore trusted = KeyStore.getInstance("PKCS12");
            trusted.load(null, null);
            trusted.setCertificateEntry("etcd", CertificateFactory.getInstance("X.509").generateCertificate(pem));
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(trusted);
            KeyManagerFactory keys = null;
            if (client != null) {
                KeyStore identity = KeyStore.getInstance("PKCS12");
                try (InputStream in = Files.newInputStream(client.keyStore())) {
                    identity.load(in, client.password());
                }
                keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                keys.init(identity, client.password());
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys == null ? null : keys.getKeyManagers(), trust.getTrustManagers(), null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new TestkitException("cannot set up TLS towards etcd: " + e, e);
        }
    }

    /** A new server, started: {@code try (EtcdServer etcd = EtcdServer.started()) { ... }}. */
    public static EtcdServer started() {
        return started(new EtcdServer());
    }

    private static EtcdServer started(EtcdServer server) {
        try {
            server.start();
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
        return server;
    }

    /**
     * Launches etcd and waits until its health check passes; after {@link #stop()} or {@link #kill()}, on the same
     * ports with the same data.
     *
     * @throws TestkitException it did not become healthy; the message ends with the tail of its log
     */
    public void start() {
        if (isRunning()) {
            throw new IllegalStateException("etcd on " + endpoint() + " is already running");
        }
        String client = clientUrl();
        String peer = "http://127.0.0.1:" + peerPort;
        List<String> command = new ArrayList<>(List.of("/bin/sh", "-c", WRAPPER, "lanemq-etcd-wrapper", binary.toString(),
                "--name", "lanemq-test",
                "--data-dir", dataDir.toString(),
                "--listen-client-urls", client,
                "--advertise-client-urls", client,
                "--listen-peer-urls", peer,
                "--initial-advertise-peer-urls", peer,
                "--initial-cluster", "lanemq-test=" + peer,
                "--initial-cluster-state", "new",
                // One member: a short election timeout makes it leader (and ready) in ~0.2 s instead of ~1 s.
                "--heartbeat-interval", "20",
                "--election-timeout", "200",
                "--logger", "zap",
                "--log-outputs", "stderr"));
        if (serverCertificate != null) {
            command.addAll(List.of("--cert-file", serverCertificate.certificatePem().toString(),
                    "--key-file", serverCertificate.privateKeyPem().toString()));
        }
        if (trustedClient != null) {
            command.addAll(List.of("--client-cert-auth", "--trusted-ca-file", trustedClientCas().toString()));
        }
        try {
            logOffset = Files.exists(logFile) ? Files.size(logFile) : 0;
            wrapper = new ProcessBuilder(command)
                    .directory(directory.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                    .start();
        } catch (IOException e) {
            throw new TestkitException("cannot launch " + binary + ": " + e.getMessage(), e);
        }
        awaitHealthy();
        if (rootPassword != null && !authEnabled) {
            enableAuthentication();
        }
    }

    /**
     * The client's certificate and the server's own: etcd's JSON gateway reaches etcd's gRPC side over TLS
     * presenting the server certificate, so with client certificates required that one must be trusted as well.
     */
    private Path trustedClientCas() {
        Path bundle = directory.resolve("trusted-clients.pem");
        try {
            Files.writeString(bundle, Files.readString(trustedClient.certificatePem()) + Files.readString(serverCertificate.certificatePem()));
        } catch (IOException e) {
            throw new TestkitException("cannot write etcd's trusted client CAs to " + bundle + ": " + e.getMessage(), e);
        }
        return bundle;
    }

    /** etcd enables authentication only once user root exists and holds role root. */
    private void enableAuthentication() {
        gateway("auth/user/add", "{\"name\":\"root\",\"password\":\"" + json(rootPassword) + "\"}");
        gateway("auth/role/add", "{\"name\":\"root\"}");
        gateway("auth/user/grant", "{\"user\":\"root\",\"role\":\"root\"}");
        gateway("auth/enable", "{}");
        authEnabled = true;
    }

    /**
     * Adds a user who may read and write the keys under {@code keyPrefix} and nothing else (its own role, named after
     * it); needs {@link Builder#authentication}.
     */
    public void addUser(String name, String password, String keyPrefix) {
        if (!authEnabled) {
            throw new IllegalStateException("etcd on " + endpoint() + " has no authentication; build it with authentication(...)");
        }
        String role = name + "-role";
        gateway("auth/user/add", "{\"name\":\"" + json(name) + "\",\"password\":\"" + json(password) + "\"}");
        gateway("auth/role/add", "{\"name\":\"" + json(role) + "\"}");
        gateway("auth/role/grant", "{\"name\":\"" + json(role) + "\",\"perm\":{\"permType\":\"READWRITE\",\"key\":\""
                + b64(keyPrefix) + "\",\"range_end\":\"" + b64(prefixEnd(keyPrefix)) + "\"}}");
        gateway("auth/user/grant", "{\"user\":\"" + json(name) + "\",\"role\":\"" + json(role) + "\"}");
    }

    /** The prefix with its last character incremented: etcd's range end for "every key with this prefix" (ASCII prefixes). */
    private static String prefixEnd(String prefix) {
        char last = prefix.charAt(prefix.length() - 1);
        return prefix.substring(0, prefix.length() - 1) + (char) (last + 1);
    }

    private static String json(String text) {
        return text.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    /** Graceful stop (SIGTERM, as etcd's own service unit does); keeps the data for the next {@link #start()}. */
    public void stop() {
        Process p = wrapper;
        if (p == null) {
            return;
        }
        try {
            p.getOutputStream().close(); // the wrapper's cue to stop etcd
        } catch (IOException e) {
            // Already gone: waitFor below returns at once.
        }
        try {
            if (!p.waitFor(STOP_BUDGET.toMillis(), TimeUnit.MILLISECONDS)) {
                kill();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            kill();
        }
        wrapper = null;
    }

    /** SIGKILL, as a crash would; keeps the data for the next {@link #start()}. */
    public void kill() {
        Process p = wrapper;
        if (p == null) {
            return;
        }
        List<ProcessHandle> family = new ArrayList<>(p.descendants().toList());
        family.forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        for (ProcessHandle member : family) {
            member.onExit().join();
        }
        try {
            p.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        wrapper = null;
    }

    public boolean isRunning() {
        return wrapper != null && wrapper.isAlive();
    }

    /** {@code 127.0.0.1:port}, the form {@code etcd://} locations take. */
    public String endpoint() {
        return "127.0.0.1:" + clientPort;
    }

    /** {@code http://127.0.0.1:port} ({@code https} with TLS), the form etcd's own tools take. */
    public String clientUrl() {
        return (serverCertificate == null ? "http://" : "https://") + endpoint();
    }

    public int clientPort() {
        return clientPort;
    }

    public Path logFile() {
        return logFile;
    }

    /** Writes a key through etcd's JSON gateway and returns the revision of the write. */
    public long put(String key, String value) {
        String body = gateway("kv/put", "{\"key\":\"" + b64(key) + "\",\"value\":\"" + b64(value) + "\"}");
        return revision(body);
    }

    /** Reads a key through etcd's JSON gateway. */
    public Optional<String> get(String key) {
        String body = gateway("kv/range", "{\"key\":\"" + b64(key) + "\"}");
        Matcher value = Pattern.compile("\"value\":\"([^\"]*)\"").matcher(body);
        if (!body.contains("\"kvs\"")) {
            return Optional.empty();
        }
        return Optional.of(value.find() ? new String(Base64.getDecoder().decode(value.group(1)), StandardCharsets.UTF_8) : "");
    }

    /** Deletes a key and returns the revision of the delete. */
    public long delete(String key) {
        return revision(gateway("kv/deleterange", "{\"key\":\"" + b64(key) + "\"}"));
    }

    /** Discards the history before {@code revision}, as etcd's auto-compaction would. */
    public void compact(long revision) {
        gateway("kv/compaction", "{\"revision\":\"" + revision + "\",\"physical\":true}");
    }

    private String gateway(String path, String json) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(clientUrl() + "/v3/" + path))
                .timeout(Duration.ofSeconds(5))
                .POST(HttpRequest.BodyPublishers.ofString(json));
        if (authEnabled) {
            // Tokens are forgotten when etcd restarts; a fresh one per call is simplest for a test's few calls.
            Matcher token = Pattern.compile("\"token\":\"([^\"]+)\"").matcher(send("auth/authenticate",
                    HttpRequest.newBuilder(URI.create(clientUrl() + "/v3/auth/authenticate")).timeout(Duration.ofSeconds(5))
                            .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"root\",\"password\":\"" + json(rootPassword) + "\"}"))
                            .build()));
            if (!token.find()) {
                throw new TestkitException("etcd on " + endpoint() + " gave root no token");
            }
            request.header("Authorization", token.group(1));
        }
        return send(path, request.build());
    }

    private String send(String path, HttpRequest request) {
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new TestkitException("etcd " + path + " on " + endpoint() + " answered " + response.statusCode() + ": " + response.body());
            }
            return response.body();
        } catch (IOException e) {
            throw new TestkitException("etcd " + path + " on " + endpoint() + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TestkitException("interrupted during etcd " + path, e);
        }
    }

    private static long revision(String body) {
        Matcher m = Pattern.compile("\"revision\":\"(\\d+)\"").matcher(body);
        if (!m.find()) {
            throw new TestkitException("no revision in etcd's answer: " + body);
        }
        return Long.parseLong(m.group(1));
    }

    private static String b64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    private void awaitHealthy() {
        long deadline = System.nanoTime() + START_BUDGET.toNanos();
        HttpRequest health = HttpRequest.newBuilder(URI.create(clientUrl() + "/health")).timeout(Duration.ofSeconds(1)).GET().build();
        String last = "no answer";
        while (true) {
            if (!wrapper.isAlive()) {
                String why = "exited with code " + wrapper.exitValue() + " before it was healthy";
                wrapper = null;
                throw failure(why);
            }
            try {
                HttpResponse<String> response = http.send(health, HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200 && response.body().contains("\"true\"")) {
                    return;
                }
                last = response.statusCode() + " " + response.body();
            } catch (IOException e) {
                last = e.toString();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                kill();
                throw new TestkitException("interrupted while starting etcd", e);
            }
            if (System.nanoTime() - deadline > 0) {
                kill();
                throw failure("was not healthy within " + START_BUDGET.toSeconds() + " s (last health answer: " + last + ")");
            }
            try {
                Thread.sleep(50); // a poll interval with a deadline, not a wait for an outcome
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                kill();
                throw new TestkitException("interrupted while starting etcd", e);
            }
        }
    }

    private TestkitException failure(String why) {
        return new TestkitException("etcd on " + endpoint() + " " + why + ". Log " + logFile + ", last lines:\n" + tail());
    }

    private String tail() {
        try (RandomAccessFile file = new RandomAccessFile(logFile.toFile(), "r")) {
            long from = Math.max(logOffset, file.length() - 8 * 1024);
            byte[] bytes = new byte[(int) (file.length() - from)];
            file.seek(from);
            file.readFully(bytes);
            String[] lines = new String(bytes, StandardCharsets.UTF_8).split("\n");
            StringBuilder sb = new StringBuilder();
            for (int i = Math.max(0, lines.length - 20); i < lines.length; i++) {
                sb.append("  | ").append(lines[i]).append('\n');
            }
            return sb.length() == 0 ? "  | (empty)\n" : sb.toString();
        } catch (IOException e) {
            return "  | (log unreadable: " + e.getMessage() + ")\n";
        }
    }

    static Path findBinary() {
        String configured = System.getProperty(BINARY_PROPERTY);
        if (configured != null && !configured.isBlank()) {
            Path path = Path.of(configured);
            if (Files.isExecutable(path)) {
                return path;
            }
            throw new TestkitException("-D" + BINARY_PROPERTY + "=" + configured + " is not an executable file");
        }
        List<Path> candidates = new ArrayList<>();
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (!dir.isBlank()) {
                candidates.add(Path.of(dir, "etcd"));
            }
        }
        candidates.add(Path.of("/usr/bin/etcd"));
        return candidates.stream().filter(Files::isExecutable).findFirst().orElseThrow(() -> new TestkitException(
                "no etcd binary on the PATH or at /usr/bin/etcd: run bin/setup-tools (it installs Debian's etcd-server), "
                        + "or name one with -D" + BINARY_PROPERTY + "=/path/to/etcd"));
    }

    /**
     * A port below the kernel's ephemeral range, so that between a stop and a restart no outgoing connection can
     * take it as its local port.
     */
    private static int freePort(int other) {
        int highest = ephemeralLow() - 1;
        for (int attempt = 0; attempt < 500; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(LOWEST_PORT, highest + 1);
            if (port == other) {
                continue;
            }
            try (ServerSocket socket = new ServerSocket()) {
                socket.bind(new InetSocketAddress("127.0.0.1", port));
                return port;
            } catch (IOException busy) {
                // try another
            }
        }
        throw new TestkitException("no free port for etcd below the ephemeral range after 500 attempts");
    }

    private static int ephemeralLow() {
        try {
            int low = Integer.parseInt(Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).trim().split("\\s+")[0]);
            return low > LOWEST_PORT + 1000 ? low : 32_768;
        } catch (IOException | RuntimeException e) {
            return 32_768;
        }
    }

    /** Stops etcd and deletes its data and log. */
    @Override
    public void close() {
        stop();
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            // A temp directory left behind is harmless; failing the test over it would not be.
        }
    }
}

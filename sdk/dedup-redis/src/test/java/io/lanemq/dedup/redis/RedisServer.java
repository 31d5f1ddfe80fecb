package io.lanemq.dedup.redis;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import redis.clients.jedis.Jedis;

/**
 * A real {@code redis-server} (Debian's package) on a free loopback port with a temporary directory and no
 * persistence, for a test. It runs under a small {@code sh} wrapper reading a pipe from this JVM: when the pipe
 * closes ({@link #close()}, or this JVM dying however it dies) the wrapper stops redis, so none outlives its test.
 */
final class RedisServer implements AutoCloseable {
    /** System property naming the binary, when it is neither on the PATH nor in /usr/bin. */
    static final String BINARY_PROPERTY = "lanemq.test.redis-server";

    private static final String WRAPPER = "exec 3<&0; \"$@\" </dev/null 3<&- & child=$!; "
            + "( cat <&3 >/dev/null; kill -TERM \"$child\" 2>/dev/null ) & exec 3<&-; wait \"$child\"";

    private final Path directory;
    private final int port;
    private final Process wrapper;

    private RedisServer(Path binary) throws IOException {
        this.directory = Files.createTempDirectory("lanemq-redis-");
        this.port = freePort();
        this.wrapper = new ProcessBuilder("/bin/sh", "-c", WRAPPER, "lanemq-redis-wrapper", binary.toString(),
                "--port", Integer.toString(port), "--bind", "127.0.0.1", "--dir", directory.toString(),
                "--save", "", "--appendonly", "no", "--daemonize", "no", "--logfile", "")
                .redirectErrorStream(true)
                .redirectOutput(directory.resolve("redis.log").toFile())
                .start();
    }

    /**
     * A started server, or the test skipped when there is no redis-server here; under {@code CI=true} a missing
     * binary fails the test, so CI never passes a check it did not run.
     */
    static RedisServer started() throws IOException {
        Optional<Path> binary = binary();
        String missing = "no redis-server on the PATH or at /usr/bin/redis-server: run bin/setup-tools (Debian's redis-server), "
                + "or name one with -D" + BINARY_PROPERTY;
        if ("true".equals(System.getenv("CI"))) {
            assertTrue(binary.isPresent(), missing);
        }
        assumeTrue(binary.isPresent(), missing);
        RedisServer server = new RedisServer(binary.get());
        try {
            Awaitility.await("redis-server on port " + server.port + " answering PING").atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(20)).ignoreExceptions()
                    .until(() -> {
                        assertTrue(server.wrapper.isAlive(), () -> "redis-server exited: " + server.log());
                        try (Jedis jedis = server.client()) {
                            return "PONG".equals(jedis.ping());
                        }
                    });
        } catch (RuntimeException | Error e) {
            server.close();
            throw e;
        }
        return server;
    }

    static Optional<Path> binary() {
        String configured = System.getProperty(BINARY_PROPERTY);
        if (configured != null && !configured.isBlank()) {
            return Optional.of(Path.of(configured)).filter(Files::isExecutable);
        }
        List<Path> candidates = new ArrayList<>();
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (!dir.isBlank()) {
                candidates.add(Path.of(dir, "redis-server"));
            }
        }
        candidates.add(Path.of("/usr/bin/redis-server"));
        return candidates.stream().filter(Files::isExecutable).findFirst();
    }

    int port() {
        return port;
    }

    /** A plain connection, to look at the keys beside the store under test. */
    Jedis client() {
        return new Jedis("127.0.0.1", port, 2_000);
    }

    private String log() {
        try {
            return Files.readString(directory.resolve("redis.log"));
        } catch (IOException e) {
            return "(log unreadable: " + e + ")";
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress("127.0.0.1", 0));
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() {
        try {
            wrapper.getOutputStream().close(); // the wrapper's cue to stop redis
            if (!wrapper.waitFor(10, TimeUnit.SECONDS)) {
                wrapper.descendants().forEach(ProcessHandle::destroyForcibly);
                wrapper.destroyForcibly();
            }
        } catch (IOException e) {
            // Already gone.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            wrapper.descendants().forEach(ProcessHandle::destroyForcibly);
            wrapper.destroyForcibly();
        }
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            // A temp directory left behind is harmless; failing the test over it would not be.
        }
    }
}

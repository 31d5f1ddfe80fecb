package io.lanemq.testkit.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real Prometheus (Debian's binary) for a test: a temp config scraping one target every second, a temp data
 * dir, a free loopback port. Stopped and deleted by {@link #close()}.
 *
 * <pre>{@code
 * try (PrometheusServer prometheus = PrometheusServer.start(PrometheusServer.binary().orElseThrow(), "127.0.0.1:9408")) {
 *     JsonNode up = prometheus.query("up");
 * }
 * }</pre>
 */
public final class PrometheusServer implements AutoCloseable {
    private static final String JOB = "target";

    private final Process process;
    private final Path dir;
    private final URI base;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private PrometheusServer(Process process, Path dir, URI base) {
        this.process = process;
        this.dir = dir;
        this.base = base;
    }

    /** The {@code prometheus} binary on the PATH, if installed. */
    public static Optional<Path> binary() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir, "prometheus");
            if (Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /** Starts Prometheus scraping {@code target} ({@code host:port}, path /metrics) and waits until it is ready. */
    public static PrometheusServer start(Path binary, String target) throws IOException {
        Path dir = Files.createTempDirectory("lanemq-prometheus-");
        Files.writeString(dir.resolve("prometheus.yml"), """
            global:
              scrape_interval: 1s
              evaluation_interval: 1s
            scrape_configs:
              - job_name: %s
                metrics_path: /metrics
                static_configs:
                  - targets: ['%s']
            """.formatted(JOB, target));
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        Process process = new ProcessBuilder(binary.toString(),
            "--config.file=" + dir.resolve("prometheus.yml"),
            "--storage.tsdb.path=" + dir.resolve("data"),
            "--web.listen-address=127.0.0.1:" + port)
            .redirectErrorStream(true).redirectOutput(dir.resolve("prometheus.log").toFile()).start();
        PrometheusServer server = new PrometheusServer(process, dir, URI.create("http://127.0.0.1:" + port));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        try {
            while (!server.ready()) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("Prometheus not ready on port " + port + " within 30 s: " + server.log());
                }
                Thread.sleep(200); // polling for readiness, bounded by the deadline above
            }
        } catch (RuntimeException e) {
            server.close();
            throw e;
        } catch (InterruptedException e) {
            server.close();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for Prometheus", e);
        }
        return server;
    }

    private boolean ready() {
        if (!process.isAlive()) {
            throw new IllegalStateException("prometheus exited: " + log());
        }
        try {
            return get("/-/ready").statusCode() == 200;
        } catch (IOException e) {
            return false;
        }
    }

    /** The HTTP API's base address, e.g. {@code http://127.0.0.1:41234}. */
    public URI uri() {
        return base;
    }

    /** Whether the target was scraped successfully at least once. */
    public boolean targetUp() throws IOException {
        JsonNode result = query("up{job=\"" + JOB + "\"}");
        return result.size() == 1 && result.get(0).path("value").get(1).asText().equals("1");
    }

    /** The result vector of an instant query (throws if Prometheus rejects the query). */
    public JsonNode query(String promql) throws IOException {
        HttpResponse<String> response = get("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8));
        JsonNode body = new ObjectMapper().readTree(response.body());
        if (!"success".equals(body.path("status").asText())) {
            throw new IllegalArgumentException("Prometheus rejected " + promql + ": " + response.body());
        }
        return body.path("data").path("result");
    }

    private HttpResponse<String> get(String path) throws IOException {
        try {
            return http.send(HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    public String log() {
        try {
            return Files.readString(dir.resolve("prometheus.log"));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temp dir: the OS cleans up what is left
        }
    }
}

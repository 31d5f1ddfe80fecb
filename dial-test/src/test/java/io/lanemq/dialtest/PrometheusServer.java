package io.lanemq.dialtest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import org.awaitility.Awaitility;

/**
 * A real Prometheus (Debian's binary) for a test: a temp config scraping one target every second, a temp data
 * dir, a free loopback port. Stopped and deleted by {@link #close()}.
 */
final class PrometheusServer implements AutoCloseable {

    private final Process process;
    private final Path dir;
    private final URI base;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private PrometheusServer(Process process, Path dir, URI base) {
        this.process = process;
        this.dir = dir;
        this.base = base;
    }

    static Optional<Path> binary() {
        return DashboardRulesPromtoolTest.executable("prometheus");
    }

    /** Starts Prometheus scraping {@code target} ({@code host:port}, path /metrics) and waits until it is ready. */
    static PrometheusServer start(Path binary, String target) throws IOException {
        Path dir = Files.createTempDirectory("lanemq-dialtest-prometheus-");
        Files.writeString(dir.resolve("prometheus.yml"), """
            global:
              scrape_interval: 1s
              evaluation_interval: 1s
            scrape_configs:
              - job_name: dial-test
                metrics_path: /metrics
                static_configs:
                  - targets: ['%s']
            """.formatted(target));
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
        try {
            Awaitility.await("Prometheus ready on port " + port).atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200)).until(server::ready);
        } catch (RuntimeException e) {
            server.close();
            throw e;
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

    /** Whether the dial-test target was scraped successfully at least once. */
    boolean targetUp() throws IOException {
        JsonNode result = query("up{job=\"dial-test\"}");
        return result.size() == 1 && result.get(0).path("value").get(1).asText().equals("1");
    }

    /** The result vector of an instant query (throws if Prometheus rejects the query). */
    JsonNode query(String promql) throws IOException {
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

    String log() {
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

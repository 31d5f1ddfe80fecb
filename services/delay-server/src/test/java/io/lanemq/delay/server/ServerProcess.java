package io.lanemq.delay.server;

import io.lanemq.service.http.ServiceEndpoints;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@link DelayServerMain} in a child JVM (as the testkit runs brokers), so a test can
 * {@code kill -9} it. Its output goes to a log file next to its store; the tail is printed when
 * it fails to come up.
 */
final class ServerProcess implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final Process process;
    private final int port;
    private final Path log;

    private ServerProcess(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    /**
     * Starts a server on {@code config} with its store in {@code storeDir} and further command-line
     * {@code options}, and waits until {@code /readyz} says ready.
     */
    static ServerProcess start(Path config, Path storeDir, Path log, String... options) throws Exception {
        int port = freePort();
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:-UsePerfData",
                "-Drocketmq.client.rebalance.waitInterval=2000",
                "-Drocketmq.log.root=" + log.getParent().resolve("rocketmq-logs"),
                "-cp", System.getProperty("java.class.path"),
                DelayServerMain.class.getName(),
                "--config", "file:" + config,
                "--store-dir", storeDir.toString(),
                "--http-address", "127.0.0.1:" + port));
        command.addAll(List.of(options));
        Files.createDirectories(log.getParent());
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        ServerProcess server = new ServerProcess(process, port, log);
        try {
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> {
                if (!process.isAlive()) {
                    throw new IllegalStateException("delay server exited with " + process.exitValue() + ":\n" + server.tail());
                }
                return server.healthy();
            });
        } catch (RuntimeException e) {
            server.close();
            throw new IllegalStateException("delay server did not come up; log tail:\n" + server.tail(), e);
        }
        return server;
    }

    boolean healthy() {
        try {
            return get(ServiceEndpoints.READINESS_PATH).statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The sum of a Prometheus counter or gauge over all its series. */
    double metric(String name) throws Exception {
        double sum = 0;
        for (String line : get("/metrics").body().split("\n")) {
            if (line.startsWith(name + "{") || line.startsWith(name + " ")) {
                sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return sum;
    }

    /** Each series of a Prometheus metric, by its labels ({@code {cluster="a"}}). */
    java.util.Map<String, Double> series(String name) throws Exception {
        java.util.Map<String, Double> out = new java.util.TreeMap<>();
        for (String line : get("/metrics").body().split("\n")) {
            if (line.startsWith(name + "{") || line.startsWith(name + " ")) {
                int space = line.lastIndexOf(' ');
                out.put(line.substring(name.length(), space), Double.parseDouble(line.substring(space + 1)));
            }
        }
        return out;
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** {@code kill -9}: no shutdown hook, no final commit, no marks written after this instant. */
    void kill9() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    String tail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroy(); // SIGTERM: the graceful path
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                kill9();
            }
        }
    }
}

package io.lanemq.proxy;

import static org.awaitility.Awaitility.await;

import io.lanemq.proxy.boot.ConsumerProxyApplication;
import io.lanemq.testkit.tls.SelfSignedCertificate;
import java.io.IOException;
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
 * The consumer proxy service ({@link ConsumerProxyApplication}) in a child JVM on fixed loopback ports, so a test can kill -9 it and
 * start it again where consumers reconnect. The child's output goes to a file under target/.
 */
final class ProxyProcess implements AutoCloseable {
    private final List<String> command;
    private final Path log;
    private final int httpPort;
    private Process process;

    private ProxyProcess(List<String> command, Path log, int httpPort) {
        this.command = command;
        this.log = log;
        this.httpPort = httpPort;
    }

    /** @param grpcPort fixed, so a restarted proxy is found where the first one was */
    static ProxyProcess of(Path platformConfig, int grpcPort, Path workDir) throws IOException {
        Path tokens = workDir.resolve("tokens.properties");
        Files.writeString(tokens, ProxyHarness.APPLICATION + "=" + ProxyHarness.TOKEN + "\n");
        int httpPort = freePort();
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                "-Dslf4j.provider=ch.qos.logback.classic.spi.LogbackServiceProvider",
                "-Drmq.logback.configurationFile=rmq.client.logback.xml",
                "-Drocketmq.log.root=" + workDir.resolve("rocketmq-logs"),
                "-Drocketmq.client.rebalance.waitInterval=2000",
                ConsumerProxyApplication.class.getName(),
                "--lanemq.proxy.config-location=" + platformConfig,
                "--lanemq.proxy.listen=127.0.0.1:" + grpcPort,
                "--lanemq.proxy.http-address=127.0.0.1:" + httpPort,
                "--lanemq.proxy.tls-key-store=" + SelfSignedCertificate.shared().keyStore(),
                "--lanemq.proxy.tokens-file=" + tokens,
                "--lanemq.proxy.ack-timeout=10s"));
        return new ProxyProcess(command, workDir.resolve("proxy-child.log"), httpPort);
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** Starts the child and waits until its health endpoint answers 200 (the proxy serves gRPC). */
    void start() throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().put("LANEMQ_PROXY_KEYSTORE_PASSWORD", new String(SelfSignedCertificate.shared().password()));
        process = builder.start();
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        HttpRequest health = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + io.lanemq.service.http.ServiceEndpoints.READINESS_PATH)).build();
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).ignoreExceptions().until(() -> {
            if (!process.isAlive()) {
                throw new IllegalStateException("the proxy child exited with " + process.exitValue() + "; see " + log);
            }
            return http.send(health, HttpResponse.BodyHandlers.ofString()).statusCode() == 200;
        });
    }

    /** SIGKILL: no shutdown hook, no drain, no commit. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                kill();
            }
        }
    }
}

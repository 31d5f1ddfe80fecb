package io.lanemq.delay.server;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * {@code GET /metrics} (Prometheus text format) and {@code GET /health} (200 or 503 with a line
 * per cluster) on the JDK's HTTP server with one named thread: the dial test's approach, since the
 * service needs two read-only endpoints and nothing else a web framework brings.
 */
final class HttpEndpoints implements AutoCloseable {

    private static final String PROMETHEUS_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    /** What the health endpoint reports. */
    record Health(boolean up, String detail) {
    }

    private final HttpServer server;
    private final ExecutorService executor;

    private HttpEndpoints(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    static HttpEndpoints start(InetSocketAddress address, PrometheusMeterRegistry registry, Supplier<Health> health) {
        HttpServer server;
        try {
            server = HttpServer.create(address, 16);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serve metrics and health on " + address + ": " + e.getMessage(), e);
        }
        ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "lanemq-delay-http");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/metrics", exchange -> reply(exchange, 200, PROMETHEUS_TYPE, registry.scrape()));
        server.createContext("/health", exchange -> {
            Health h = health.get();
            reply(exchange, h.up() ? 200 : 503, "text/plain; charset=utf-8", (h.up() ? "UP\n" : "DOWN\n") + h.detail());
        });
        server.start();
        return new HttpEndpoints(server, executor);
    }

    private static void reply(HttpExchange exchange, int status, String type, String text) throws IOException {
        try (exchange) {
            String method = exchange.getRequestMethod();
            if (!"GET".equals(method) && !"HEAD".equals(method)) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            byte[] body = text.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", type);
            boolean head = "HEAD".equals(method);
            exchange.sendResponseHeaders(status, head ? -1 : body.length);
            if (!head) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            }
        }
    }

    int port() {
        return server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}

package io.lanemq.proxy;

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
import java.util.function.BooleanSupplier;

/**
 * {@code GET /metrics} (Prometheus text format) and {@code GET /health} (200 {@code UP} while
 * serving, 503 {@code DRAINING} once shutdown began) on the JDK's HTTP server with one named thread,
 * as the dial test serves its metrics.
 */
final class HttpEndpoints implements AutoCloseable {
    private static final String PROMETHEUS_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final HttpServer server;
    private final ExecutorService executor;

    private HttpEndpoints(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    static HttpEndpoints start(InetSocketAddress address, PrometheusMeterRegistry registry, BooleanSupplier serving) {
        HttpServer server;
        try {
            server = HttpServer.create(address, 16);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serve metrics and health on " + address + ": " + e.getMessage(), e);
        }
        ExecutorService executor = Executors.newSingleThreadExecutor(DaemonThreads.named("lanemq-proxy-http"));
        server.setExecutor(executor);
        server.createContext("/metrics", exchange -> answer(exchange, 200, PROMETHEUS_TYPE, registry.scrape()));
        server.createContext("/health", exchange -> {
            boolean up = serving.getAsBoolean();
            answer(exchange, up ? 200 : 503, "text/plain; charset=utf-8", up ? "UP\n" : "DRAINING\n");
        });
        server.start();
        return new HttpEndpoints(server, executor);
    }

    private static void answer(HttpExchange exchange, int code, String type, String text) throws IOException {
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
            exchange.sendResponseHeaders(code, head ? -1 : body.length);
            if (!head) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            }
        }
    }

    InetSocketAddress address() {
        return server.getAddress();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}

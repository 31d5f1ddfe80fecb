package io.lanemq.service.http;

import io.lanemq.support.NamedThreads;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The operations endpoints every LaneMQ service serves, the same on each (see this module's README):
 * {@value #LIVENESS_PATH} (200 while the process answers HTTP at all), {@value #READINESS_PATH} (200 only
 * while its {@link Readiness} says so, 503 otherwise, the phase and checks as text) and {@value #METRICS_PATH}
 * (Prometheus text format), on the JDK's HTTP server with a few named daemon threads and a request timeout.
 * Only GET and HEAD are answered; nothing else is served.
 *
 * <p>The JDK server rather than a web framework: each service needs three read-only endpoints, and
 * a framework would bring its own logging and dependency versions against the ones the root pom pins.
 *
 * <pre>{@code
 * Readiness readiness = Readiness.create();
 * ServiceEndpoints http = ServiceEndpoints.start("lanemq-delay-http", HttpAddress.parse("http-address", "0.0.0.0:9406"),
 *         registry, readiness);
 * }</pre>
 */
public final class ServiceEndpoints implements AutoCloseable {
    /** Liveness: answers 200 whenever the server answers; a kubelet restarts a service that stops answering. */
    public static final String LIVENESS_PATH = "/livez";
    /** Readiness: 200 only while serving (not starting, catching up or draining). */
    public static final String READINESS_PATH = "/readyz";
    /** Prometheus scrape. */
    public static final String METRICS_PATH = "/metrics";
    private static final String PROMETHEUS_TYPE = "text/plain; version=0.0.4; charset=utf-8";
    private static final String TEXT_TYPE = "text/plain; charset=utf-8";
    /** Workers: a client that sends half a request holds one until the request timeout below frees it. */
    private static final int WORKERS = 4;

    static {
        // The JDK server reads a request on a worker thread and has no per-server timeouts, only these JVM-wide
        // properties, read when the JVM's first server is created; a value given on the command line wins. In
        // seconds: ServerImpl multiplies them by 1,000 (measured on JDK 17: a half-sent request with 2 was closed
        // after 3.0 s, timer tick included, and never without). Without them, one client that sent half a request
        // and waited stalled /readyz and /metrics for every other caller (ServiceEndpointsTest).
        setIfAbsent("sun.net.httpserver.maxReqTime", "5");
        setIfAbsent("sun.net.httpserver.maxRspTime", "10");
    }

    private final HttpServer server;
    private final ExecutorService executor;

    /**
     * What {@code /readyz} answers.
     *
     * @param up   200 when true, 503 when false
     * @param text the body, e.g. {@code UP} and a line per component
     */
    public record Health(boolean up, String text) {
        public Health {
            Objects.requireNonNull(text, "text");
        }

        public static Health up(String text) {
            return new Health(true, text);
        }

        public static Health down(String text) {
            return new Health(false, text);
        }
    }

    private ServiceEndpoints(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    /**
     * Binds {@code address} (port 0 = any free port) and serves at once.
     *
     * @param threadName the name of the serving thread
     * @param readiness  what {@code /readyz} reports; null: no {@code /readyz} (an embedded metrics endpoint)
     * @throws UncheckedIOException the address cannot be bound, with the address named
     */
    public static ServiceEndpoints start(String threadName, InetSocketAddress address, PrometheusMeterRegistry registry,
                                         Readiness readiness) {
        Objects.requireNonNull(registry, "registry");
        HttpServer server;
        try {
            server = HttpServer.create(address, 16);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serve metrics and health on " + address + ": " + e.getMessage(), e);
        }
        ExecutorService executor = Executors.newFixedThreadPool(WORKERS, NamedThreads.numbered(threadName));
        server.setExecutor(executor);
        server.createContext(METRICS_PATH, exchange -> reply(exchange, 200, PROMETHEUS_TYPE, registry.scrape()));
        server.createContext(LIVENESS_PATH, exchange -> reply(exchange, 200, TEXT_TYPE, "OK\n"));
        if (readiness != null) {
            server.createContext(READINESS_PATH, exchange -> {
                Health now = readiness.health();
                String text = now.text().endsWith("\n") ? now.text() : now.text() + "\n";
                reply(exchange, now.up() ? 200 : 503, TEXT_TYPE, text);
            });
        }
        server.start();
        return new ServiceEndpoints(server, executor);
    }

    private static void setIfAbsent(String property, String value) {
        if (System.getProperty(property) == null) {
            System.setProperty(property, value);
        }
    }

    private static void reply(HttpExchange exchange, int status, String type, String text) throws IOException {
        try (exchange) {
            // A context matches every path below it; only the exact path is served.
            if (!exchange.getRequestURI().getPath().equals(exchange.getHttpContext().getPath())) {
                exchange.sendResponseHeaders(404, -1);
                return;
            }
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

    /** The bound address (with the actual port when 0 was asked for). */
    public InetSocketAddress address() {
        return server.getAddress();
    }

    /** {@code http://host:port/metrics}. */
    public URI metricsUri() {
        InetSocketAddress a = address();
        return URI.create("http://" + a.getAddress().getHostAddress() + ":" + a.getPort() + "/metrics");
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}

package io.lanemq.proxy.boot;

import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.proxy.ConsumerProxyServer;
import io.lanemq.proxy.ProxyServerOptions;
import io.lanemq.service.http.Readiness;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;
import org.springframework.context.SmartLifecycle;

/**
 * Starts the {@link ConsumerProxyServer} when the context starts and runs its graceful
 * {@link ConsumerProxyServer#close()} when the context closes (SIGTERM included).
 *
 * <p>A lifecycle, so the context stops it before it destroys its plain beans: {@code /readyz} answers DRAINING
 * throughout the drain (marked before the drain begins), and the meter registry and the endpoints, plain beans,
 * are destroyed only after it stopped, so the last commits and counts still land in the registry and are served.
 */
public final class ProxyLifecycle implements SmartLifecycle {
    private final ProxyServerOptions config;
    private final MeterRegistry registry;
    private final Readiness readiness;
    private volatile ConsumerProxyServer server;

    ProxyLifecycle(ProxyServerOptions config, MeterRegistry registry, Readiness readiness) {
        this.config = config;
        this.registry = registry;
        this.readiness = readiness;
    }

    @Override
    public synchronized void start() {
        if (server != null) {
            return;
        }
        try {
            server = ConsumerProxyServer.start(config, registry);
            readiness.serving();
        } catch (InvalidConfigurationException e) {
            throw new IllegalStateException("the platform configuration at lanemq.proxy.config-location="
                    + config.configLocation() + " is invalid: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException("the consumer proxy could not start on " + config.grpcAddress(), e);
        }
    }

    /** Blocks for the whole graceful shutdown: at most the drain timeout plus the server's own stop. */
    @Override
    public synchronized void stop() {
        readiness.draining();
        if (server != null) {
            server.close();
        }
    }

    @Override
    public boolean isRunning() {
        ConsumerProxyServer current = server;
        return current != null && current.serving();
    }

    @Override
    public int getPhase() {
        return DEFAULT_PHASE;
    }

    /** The running (or stopped) proxy; empty before the context started it. */
    public Optional<ConsumerProxyServer> server() {
        return Optional.ofNullable(server);
    }
}

package io.lanemq.proxy.boot;

import io.lanemq.proxy.ConsumerProxyServer;
import java.util.Optional;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

/**
 * UP while the proxy serves; OUT_OF_SERVICE before it started and from the start of its graceful shutdown,
 * so a load balancer stops sending consumers to it while it drains.
 */
final class ProxyHealthIndicator implements HealthIndicator {
    private final ProxyLifecycle proxy;

    ProxyHealthIndicator(ProxyLifecycle proxy) {
        this.proxy = proxy;
    }

    @Override
    public Health health() {
        Optional<ConsumerProxyServer> server = proxy.server();
        if (server.isEmpty()) {
            return Health.outOfService().withDetail("state", "STARTING").build();
        }
        if (!server.get().serving()) {
            return Health.outOfService().withDetail("state", "DRAINING").build();
        }
        return Health.up().withDetail("grpc", server.get().grpcAddress().toString()).build();
    }
}

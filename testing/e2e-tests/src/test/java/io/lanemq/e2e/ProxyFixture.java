package io.lanemq.e2e;

import io.lanemq.api.ClientOptions;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.MessagingException;
import io.lanemq.config.ConsumerProxyConfig;
import io.lanemq.localstack.LocalPlatform;
import io.lanemq.proxy.ConsumerProxyServer;
import io.lanemq.proxy.ProxyServerOptions;
import io.lanemq.testkit.tls.SelfSignedCertificate;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;

/**
 * A real consumer proxy in the test JVM, on 127.0.0.1 with TLS (a self-signed test certificate), over
 * a local platform's configuration file; the platform then names it in its {@code proxy} section.
 * Its one application is {@link #APPLICATION} with {@link #TOKEN}.
 */
final class ProxyFixture implements AutoCloseable {
    static final String APPLICATION = "proxy-e2e-app";
    static final String TOKEN = "proxy-e2e-token-0123456789";

    private final LocalPlatform platform;
    private final ConsumerProxyServer server;

    private ProxyFixture(LocalPlatform platform, ConsumerProxyServer server) {
        this.platform = platform;
        this.server = server;
    }

    static ProxyFixture start(LocalPlatform platform) throws MessagingException, IOException {
        return start(platform, List.of());
    }

    /** A proxy that also knows each of {@code applications} with {@link #TOKEN}. */
    static ProxyFixture start(LocalPlatform platform, List<String> applications) throws MessagingException, IOException {
        ProxyServerOptions.Builder builder = ProxyServerOptions.builder(platform.writeConfig().toString());
        applications.forEach(application -> builder.token(application, TOKEN));
        ProxyServerOptions config = builder
                .proxyId(LocalPlatform.unique("proxy"))
                .grpcAddress(new InetSocketAddress("127.0.0.1", 0))
                .tls(SelfSignedCertificate.shared().keyStore(), SelfSignedCertificate.shared().password())
                .token(APPLICATION, TOKEN)
                .backoff(Duration.ofMillis(500), Duration.ofSeconds(5))
                .commitInterval(Duration.ofMillis(200))
                .drainTimeout(Duration.ofSeconds(2))
                // A group switched back to DIRECT gets its queues back soon after the last PROXY consumer left.
                .idleGroupTimeout(Duration.ofSeconds(2))
                .build();
        ConsumerProxyServer server = ConsumerProxyServer.start(config);
        ProxyFixture proxy = new ProxyFixture(platform, server);
        platform.proxy(new ConsumerProxyConfig(List.of(proxy.endpoint()), SelfSignedCertificate.shared().certificatePem()));
        return proxy;
    }

    /** Where it serves, {@code 127.0.0.1:port}. */
    String endpoint() {
        return "127.0.0.1:" + server.grpcAddress().getPort();
    }

    /** A client of the platform as {@link #APPLICATION}, authenticating with {@code token}. */
    MessagingClient client(String token) throws MessagingException {
        return MessagingClient.create(ClientOptions.builder(APPLICATION).configLocation(platform.writeConfig().toString())
                .proxyToken(token).build());
    }

    /** Deliveries the proxy pushed, all groups and consumers together. */
    double deliveries() {
        return server.meters().find("lanemq.proxy.deliveries").counters().stream().mapToDouble(c -> c.count()).sum();
    }

    /** Consumers connected to it now, all groups together. */
    double consumers() {
        return server.meters().find("lanemq.proxy.consumers").gauges().stream().mapToDouble(g -> g.value()).sum();
    }

    @Override
    public void close() {
        server.close();
    }
}

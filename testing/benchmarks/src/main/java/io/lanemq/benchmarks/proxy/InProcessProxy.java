package io.lanemq.benchmarks.proxy;

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
 * A real consumer proxy in the benchmark JVM, on 127.0.0.1 with TLS (the JVM's self-signed
 * certificate) and one application token, named in the platform's {@code proxy} section, so PROXY-mode
 * groups of the platform are pushed by it. Used by P3 and by P8 (idle with the proxy connected).
 */
public final class InProcessProxy implements AutoCloseable {
    private static final String APPLICATION = "bench-proxy-app";
    private static final String TOKEN = "bench-proxy-token-0123456789";

    private final LocalPlatform platform;
    private final ConsumerProxyServer server;

    private InProcessProxy(LocalPlatform platform, ConsumerProxyServer server) {
        this.platform = platform;
        this.server = server;
    }

    public static InProcessProxy start(LocalPlatform platform) throws MessagingException, IOException {
        SelfSignedCertificate certificate = SelfSignedCertificate.shared();
        ProxyServerOptions config = ProxyServerOptions.builder(platform.writeConfig().toString())
                .proxyId(LocalPlatform.unique("bench-proxy"))
                .grpcAddress(new InetSocketAddress("127.0.0.1", 0))
                .tls(certificate.keyStore(), certificate.password())
                .token(APPLICATION, TOKEN)
                .drainTimeout(Duration.ofSeconds(2)) // the benchmark's end need not wait long for stragglers
                .build();
        ConsumerProxyServer server = ConsumerProxyServer.start(config);
        platform.proxy(new ConsumerProxyConfig(List.of("127.0.0.1:" + server.grpcAddress().getPort()), certificate.certificatePem()));
        platform.writeConfig();
        return new InProcessProxy(platform, server);
    }

    /** A client of the platform as the proxy's application, with its token: what a PROXY-mode consumer needs. */
    public MessagingClient client() throws MessagingException {
        return MessagingClient.create(ClientOptions.builder(APPLICATION)
                .configLocation(platform.writeConfig().toString()).proxyToken(TOKEN).build());
    }

    /** Deliveries per frame the proxy pushed, on average over the run. */
    double deliveriesPerFrame() {
        return server.meters().find("lanemq.proxy.frame.deliveries").summaries().stream().mapToDouble(s -> s.mean()).max().orElse(0);
    }

    /** The proxy's view of its groups: messages held (fetched, not finished) and deliveries out with consumers. */
    String holdings() {
        return String.format("proxy holds %.0f, %.0f out with consumers", gaugeSum("lanemq.proxy.held"), gaugeSum("lanemq.proxy.in.flight"));
    }

    private double gaugeSum(String name) {
        return server.meters().find(name).gauges().stream().mapToDouble(g -> g.value()).sum();
    }

    /** Consumers connected to the proxy, all groups together. */
    int consumers() {
        return (int) gaugeSum("lanemq.proxy.consumers");
    }

    /** Redeliveries the proxy made (ack timeouts, disconnects, nacks), all groups together. */
    double redeliveries() {
        return server.meters().find("lanemq.proxy.redeliveries").counters().stream().mapToDouble(c -> c.count()).sum();
    }

    @Override
    public void close() {
        server.close();
    }
}

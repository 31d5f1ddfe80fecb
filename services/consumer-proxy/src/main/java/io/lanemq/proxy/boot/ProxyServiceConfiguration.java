package io.lanemq.proxy.boot;

import io.lanemq.proxy.ProxyServerOptions;
import io.lanemq.service.http.JvmMeters;
import io.lanemq.service.http.Readiness;
import io.lanemq.core.client.ConfigStaleness;
import org.springframework.beans.factory.ObjectProvider;
import io.lanemq.service.http.ServiceEndpoints;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import java.util.stream.Stream;

/**
 * The proxy's beans: its validated settings, its meters, the operations endpoints (service-http's, as in the
 * other services) and the proxy under the context's lifecycle.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ProxyProperties.class)
public class ProxyServiceConfiguration {

    /** Built at context refresh, so a bad {@code lanemq.proxy.*} value fails startup naming the property. */
    @Bean
    ProxyServerOptions proxyConfig(ProxyProperties properties) {
        properties.validShutdownGrace();
        properties.validReadinessDelay();
        return properties.toProxyConfig();
    }

    @Bean(destroyMethod = "close")
    PrometheusMeterRegistry proxyMeterRegistry() {
        return new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    }

    @Bean(destroyMethod = "close")
    AutoCloseable proxyJvmMeters(PrometheusMeterRegistry registry) {
        return JvmMeters.bindTo(registry);
    }

    /** Ready while serving; the text carries the configuration line (a start on the local snapshot serves and says so). */
    @Bean
    Readiness proxyReadiness(ObjectProvider<ProxyLifecycle> proxy) {
        // A cluster not fetched yet leaves the proxy ready: it serves the others; the lines say which and why.
        return Readiness.withChecks(() -> ServiceEndpoints.Health.up(proxy.getObject().server()
                .map(server -> String.join("\n", Stream.concat(Stream.of(ConfigStaleness.describe(server.configuration())),
                        server.detachedClusters().stream()).toList())).orElse("")));
    }

    /**
     * Serving from context refresh, before the proxy starts (STARTING), and closed only after every lifecycle
     * stopped, so {@code /readyz} answers DRAINING throughout the drain. Takes the validated settings so a bad
     * property fails startup before anything binds a port.
     */
    @Bean(destroyMethod = "close")
    ServiceEndpoints proxyEndpoints(ProxyServerOptions config, ProxyProperties properties,
                                    PrometheusMeterRegistry registry, Readiness readiness) {
        return ServiceEndpoints.start("lanemq-proxy-http", properties.httpSocketAddress(), registry, readiness);
    }

    @Bean
    ProxyLifecycle consumerProxy(ProxyServerOptions config, PrometheusMeterRegistry registry, Readiness readiness) {
        return new ProxyLifecycle(config, registry, readiness);
    }
}

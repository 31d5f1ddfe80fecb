package io.lanemq.proxy.boot;

import io.lanemq.proxy.ProxyServerOptions;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The proxy's beans: its validated settings, the proxy under the context's lifecycle, and its health. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ProxyProperties.class)
public class ProxyServiceConfiguration {

    /** Built at context refresh, so a bad {@code lanemq.proxy.*} value fails startup naming the property. */
    @Bean
    ProxyServerOptions proxyConfig(ProxyProperties properties) {
        return properties.toProxyConfig();
    }

    @Bean
    ProxyLifecycle consumerProxy(ProxyServerOptions config, MeterRegistry registry) {
        return new ProxyLifecycle(config, registry);
    }

    @Bean
    ProxyHealthIndicator consumerProxyHealthIndicator(ProxyLifecycle proxy) {
        return new ProxyHealthIndicator(proxy);
    }
}

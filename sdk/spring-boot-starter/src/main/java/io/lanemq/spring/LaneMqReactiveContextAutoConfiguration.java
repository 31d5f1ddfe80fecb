package io.lanemq.spring;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.web.server.WebFilter;

/**
 * In a reactive (WebFlux) web application, every request's chain carries the message context its headers name
 * ({@link LaneMqContextWebFilter}). Same properties and switch as the servlet filter's.
 */
@AutoConfiguration(afterName = {
        "org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration"})
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@ConditionalOnClass(WebFilter.class)
@ConditionalOnProperty(prefix = LaneMqProperties.PREFIX, name = {"enabled", "context.enabled"}, matchIfMissing = true)
@EnableConfigurationProperties(LaneMqProperties.class)
public class LaneMqReactiveContextAutoConfiguration {
    @Bean
    @ConditionalOnMissingBean
    public LaneMqContextWebFilter laneMqContextWebFilter(LaneMqProperties properties, ObjectProvider<MeterRegistry> registry) {
        return new LaneMqContextWebFilter(properties.getContext().headers(), registry.getIfUnique(() -> Metrics.globalRegistry));
    }
}

package io.lanemq.spring;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import jakarta.servlet.Filter;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * In a servlet web application, runs every request in the message context its headers name
 * ({@link LaneMqContextFilter}). Needs no {@code MessagingClient}: the context is a thread's, and any producer
 * of the request's thread stamps it. Off with {@code lanemq.context.enabled=false} (or {@code lanemq.enabled=false}).
 */
@AutoConfiguration(afterName = {
        "org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration"})
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass({Filter.class, OncePerRequestFilter.class})
@ConditionalOnProperty(prefix = LaneMqProperties.PREFIX, name = "enabled", matchIfMissing = true)
@EnableConfigurationProperties(LaneMqProperties.class)
public class LaneMqContextAutoConfiguration {
    /**
     * Early in the chain (after Boot's character-encoding filter, before Spring Security's at -100), so every
     * later filter that sends a message already runs in the request's context.
     */
    public static final int FILTER_ORDER = Ordered.HIGHEST_PRECEDENCE + 100;

    @Bean
    @ConditionalOnMissingBean(name = "laneMqContextFilter")
    @ConditionalOnProperty(prefix = LaneMqProperties.PREFIX, name = "context.enabled", matchIfMissing = true)
    public FilterRegistrationBean<LaneMqContextFilter> laneMqContextFilter(LaneMqProperties properties,
                                                                         ObjectProvider<MeterRegistry> registry) {
        LaneMqContextFilter filter = new LaneMqContextFilter(properties.getContext().headers(),
                registry.getIfUnique(() -> Metrics.globalRegistry));
        FilterRegistrationBean<LaneMqContextFilter> registration = new FilterRegistrationBean<>(filter);
        registration.setName("laneMqContextFilter");
        registration.setOrder(FILTER_ORDER);
        return registration;
    }
}

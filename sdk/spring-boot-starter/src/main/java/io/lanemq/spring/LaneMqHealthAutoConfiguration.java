package io.lanemq.spring;

import io.lanemq.api.MessagingClient;
import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The {@code lanemq} health indicator (see {@link LaneMqHealthIndicator}) for an application with Actuator: on unless
 * {@code management.health.lanemq.enabled=false} (or {@code management.health.defaults.enabled=false}), over the
 * application's one {@link MessagingClient}, the starter's or its own. An application bean named
 * {@code lanemqHealthIndicator} replaces it.
 */
@AutoConfiguration(after = LaneMqAutoConfiguration.class)
@ConditionalOnClass(HealthIndicator.class)
public class LaneMqHealthAutoConfiguration {

    /**
     * Nested so that its conditions are read only once Actuator is known to be there: Spring loads every condition
     * class of a configuration before evaluating any, and {@code @ConditionalOnEnabledHealthIndicator}'s is Actuator's
     * own, which would fail an application without Actuator.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnSingleCandidate(MessagingClient.class)
    @ConditionalOnEnabledHealthIndicator("lanemq")
    static class IndicatorConfiguration {

        /** Named so that Actuator registers it as {@code lanemq} (it drops the {@code HealthIndicator} suffix). */
        @Bean
        @ConditionalOnMissingBean(name = "lanemqHealthIndicator")
        HealthIndicator lanemqHealthIndicator(MessagingClient client) {
            return new LaneMqHealthIndicator(client);
        }
    }
}

package io.lanemq.spring;

import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The {@code lanemqlisteners} Actuator endpoint (see {@link LaneMqListenersEndpoint}) for an application with Actuator:
 * read-only, or with pause and resume when {@code lanemq.listeners.endpoint.control=true} (see
 * {@link LaneMqListenersControlEndpoint} for why writes are opt-in).
 */
@AutoConfiguration(after = LaneMqAutoConfiguration.class)
@ConditionalOnClass(Endpoint.class)
public class LaneMqListenersEndpointAutoConfiguration {
    /** Turns the endpoint's pause and resume on. */
    public static final String CONTROL_PROPERTY = "lanemq.listeners.endpoint.control";

    /** Nested so that Actuator's condition classes are loaded only once Actuator is known to be there. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnBean(LaneMqListenerRegistry.class)
    @ConditionalOnAvailableEndpoint(endpoint = LaneMqListenersEndpoint.class)
    static class EndpointConfiguration {

        @Bean
        @ConditionalOnMissingBean(LaneMqListenersEndpoint.class)
        @ConditionalOnProperty(name = CONTROL_PROPERTY, havingValue = "true")
        LaneMqListenersControlEndpoint laneMqListenersControlEndpoint(LaneMqListenerRegistry registry) {
            return new LaneMqListenersControlEndpoint(registry);
        }

        @Bean
        @ConditionalOnMissingBean(LaneMqListenersEndpoint.class)
        @ConditionalOnProperty(name = CONTROL_PROPERTY, havingValue = "false", matchIfMissing = true)
        LaneMqListenersEndpoint laneMqListenersEndpoint(LaneMqListenerRegistry registry) {
            return new LaneMqListenersEndpoint(registry);
        }
    }
}

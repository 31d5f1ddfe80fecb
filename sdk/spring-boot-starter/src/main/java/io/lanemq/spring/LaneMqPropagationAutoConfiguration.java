package io.lanemq.spring;

import io.lanemq.api.MessageContext;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.client.RestClientCustomizer;
import org.springframework.boot.web.client.RestTemplateCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.task.TaskDecorator;
import org.springframework.core.task.support.ContextPropagatingTaskDecorator;
import org.springframework.http.client.ClientHttpRequestInterceptor;

/**
 * The lane and stress-test marks beyond the request's thread: {@code @Async} methods and Spring Boot's task
 * executor run in the submitter's {@link MessageContext} (a {@link TaskDecorator}, unless the application has
 * one), and {@code RestTemplate} / {@code RestClient} built from Spring Boot's builders send them on to the next
 * application in the headers its {@link LaneMqContextFilter} reads, as {@code WebClient} does from Spring Boot's
 * builder. Off with {@code lanemq.context.enabled=false}.
 *
 * <p>With Micrometer's context-propagation on the class path the decorator is Spring's
 * {@link ContextPropagatingTaskDecorator}, which carries every registered context (tracing's too, and ours through
 * {@link MessageContextAccessor}); without it, the message context alone.
 */
@AutoConfiguration(before = TaskExecutionAutoConfiguration.class)
@ConditionalOnProperty(prefix = LaneMqProperties.PREFIX, name = {"enabled", "context.enabled"}, matchIfMissing = true)
@EnableConfigurationProperties(LaneMqProperties.class)
public class LaneMqPropagationAutoConfiguration {

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "io.micrometer.context.ContextSnapshotFactory")
    static class WithContextPropagation {
        @Bean
        @ConditionalOnMissingBean(TaskDecorator.class)
        TaskDecorator laneMqTaskDecorator() {
            return new ContextPropagatingTaskDecorator();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnMissingClass("io.micrometer.context.ContextSnapshotFactory")
    static class WithoutContextPropagation {
        @Bean
        @ConditionalOnMissingBean(TaskDecorator.class)
        TaskDecorator laneMqTaskDecorator() {
            return runnable -> MessageContext.current().wrap(runnable);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = {"org.springframework.web.reactive.function.client.WebClient",
            "org.springframework.boot.web.reactive.function.client.WebClientCustomizer"})
    static class WebClientHeaders {
        @Bean
        org.springframework.boot.web.reactive.function.client.WebClientCustomizer laneMqWebClientContext(LaneMqProperties properties) {
            ContextHeadersExchangeFilter filter = new ContextHeadersExchangeFilter(properties.getContext().headers());
            return builder -> builder.filter(filter);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass({ClientHttpRequestInterceptor.class, RestTemplateCustomizer.class})
    static class OutboundHeaders {
        @Bean
        ContextHeadersInterceptor laneMqContextHeadersInterceptor(LaneMqProperties properties) {
            return new ContextHeadersInterceptor(properties.getContext().headers());
        }

        @Bean
        RestTemplateCustomizer laneMqRestTemplateContext(ContextHeadersInterceptor interceptor) {
            return restTemplate -> restTemplate.getInterceptors().add(interceptor);
        }

        @Bean
        RestClientCustomizer laneMqRestClientContext(ContextHeadersInterceptor interceptor) {
            return builder -> builder.requestInterceptor(interceptor);
        }
    }
}

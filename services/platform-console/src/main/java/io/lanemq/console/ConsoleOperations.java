package io.lanemq.console;

import io.lanemq.config.etcd.EtcdException;
import io.lanemq.config.store.ConfigStore;
import io.lanemq.service.http.JvmMeters;
import io.lanemq.service.http.Readiness;
import io.lanemq.service.http.ServiceEndpoints;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.context.event.EventListener;

/**
 * The operations endpoints every LaneMQ service serves ({@code /livez}, {@code /readyz}, {@code /metrics} from
 * service-http, on their own address), so the console is probed and scraped like the others. Ready once the pages
 * serve and while etcd answers: without etcd the console can show and change nothing. Its meters: the JVM's and
 * {@link ConsoleMetrics}.
 */
@Configuration(proxyBeanMethods = false)
class ConsoleOperations {

    @Bean
    PrometheusMeterRegistry consoleMeters() {
        return new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    }

    @Bean(destroyMethod = "close")
    AutoCloseable consoleJvmMeters(PrometheusMeterRegistry consoleMeters) {
        return JvmMeters.bindTo(consoleMeters);
    }

    /** The configuration's revision and drained IDCs, for the dashboards' annotations. */
    @Bean(destroyMethod = "close")
    ConsoleMetrics consoleMetrics(ConfigStore store, PrometheusMeterRegistry consoleMeters) {
        return ConsoleMetrics.start(store, consoleMeters, Duration.ofSeconds(5));
    }

    @Bean
    Readiness consoleReadiness(ConfigStore store) {
        return Readiness.withChecks(() -> {
            try {
                return ServiceEndpoints.Health.up("etcd: revision " + store.current().revision() + " of " + store.key());
            } catch (EtcdException e) {
                return ServiceEndpoints.Health.down("etcd: " + e.getMessage());
            }
        });
    }

    /** Serving from context refresh, so liveness answers while the pages start; closed after the web server. */
    @Bean(destroyMethod = "close")
    ServiceEndpoints consoleEndpoints(ConsoleProperties properties, PrometheusMeterRegistry consoleMeters, Readiness consoleReadiness) {
        // Checked at start, not first read on SIGTERM.
        properties.validReadinessDelay();
        properties.validShutdownGrace();
        return ServiceEndpoints.start("lanemq-console-http", properties.httpSocketAddress(), consoleMeters, consoleReadiness);
    }

    @EventListener(ApplicationReadyEvent.class)
    void serving(ApplicationReadyEvent ready) {
        ready.getApplicationContext().getBean(Readiness.class).serving();
    }

    @EventListener(ContextClosedEvent.class)
    void draining(ContextClosedEvent closed) {
        closed.getApplicationContext().getBean(Readiness.class).draining();
    }
}

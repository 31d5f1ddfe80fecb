package io.lanemq.console;

import io.lanemq.service.http.GracefulShutdown;
import io.lanemq.service.http.Readiness;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The platform console as a Spring Boot service: server-rendered pages (Thymeleaf) over the platform configuration
 * in etcd, behind Spring Security. Configured by {@code lanemq.console.*} ({@link ConsoleProperties}). SIGTERM is
 * handled the services' one way ({@link GracefulShutdown}): not ready at once, the readiness delay, then the close.
 *
 * <pre>{@code
 * LANEMQ_CONSOLE_KEYSTORE_PASSWORD=... java -jar platform-console-exec.jar --server.address=0.0.0.0 \
 *     --lanemq.console.etcd-endpoints=etcd-1:2379 --lanemq.console.etcd-cacert=/etc/lanemq/etcd-ca.pem \
 *     --lanemq.console.config-key=/lanemq/platform/prod \
 *     --lanemq.console.users-file=/etc/lanemq/console-users.yaml --lanemq.console.tls-key-store=/etc/lanemq/console.p12 \
 *     --lanemq.console.dial-test-metrics-url=http://dialtest:9464/metrics
 * }</pre>
 */
@SpringBootApplication
@EnableConfigurationProperties(ConsoleProperties.class)
public class ConsoleApplication {
    /** Below every property source a deployment sets: loopback unless told otherwise, no banner. */
    static final Map<String, Object> DEFAULTS = Map.of(
            "server.address", "127.0.0.1",
            "server.port", "8443",
            "spring.main.banner-mode", "off",
            // Requests in flight finish on SIGTERM (within the shutdown grace) instead of being cut.
            "server.shutdown", "graceful",
            "spring.thymeleaf.cache", "true");

    public static void main(String[] args) {
        SpringApplication application = application();
        application.setRegisterShutdownHook(false); // ours below: readiness first, the readiness delay, then the close, bounded
        ConfigurableApplicationContext context = application.run(args);
        ConsoleProperties properties = context.getBean(ConsoleProperties.class);
        GracefulShutdown.install("lanemq-console", context.getBean(Readiness.class), properties.validReadinessDelay(),
                properties.validShutdownGrace(), context::close);
    }

    /** The application with the service's defaults; {@code run(args)} starts it. */
    public static SpringApplication application() {
        return application(System::getenv);
    }

    /**
     * As {@link #application()}, reading environment variables (the key store password) through {@code environment}:
     * tests hand in their own, since a JVM cannot set its own environment.
     */
    static SpringApplication application(UnaryOperator<String> environment) {
        SpringApplication application = new SpringApplication(ConsoleApplication.class);
        application.setDefaultProperties(DEFAULTS);
        application.addInitializers(context -> context.getBeanFactory()
                .registerSingleton("environmentVariables", new EnvironmentVariables(environment)));
        return application;
    }

    /** Where secrets come from: the process environment, never a property. */
    record EnvironmentVariables(UnaryOperator<String> lookup) {
    }
}

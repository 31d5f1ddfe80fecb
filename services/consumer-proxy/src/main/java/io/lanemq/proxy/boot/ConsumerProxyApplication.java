package io.lanemq.proxy.boot;

import io.lanemq.service.http.GracefulShutdown;
import io.lanemq.service.http.Readiness;
import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The consumer proxy as a Spring Boot service: the gRPC proxy ({@link ProxyLifecycle}) configured by
 * {@code lanemq.proxy.*} ({@link ProxyProperties}), with {@code /livez}, {@code /readyz} and {@code /metrics} on
 * {@code lanemq.proxy.http-address} (service-http, as the other services). SIGTERM is handled the services' one
 * way ({@link GracefulShutdown}): not ready at once, then the context closes (the proxy drains first) within
 * {@code lanemq.proxy.shutdown-grace}.
 *
 * <pre>{@code
 * java -jar consumer-proxy-exec.jar --lanemq.proxy.config-location=file:/etc/lanemq/platform.yaml \
 *     --lanemq.proxy.tls-key-store=/etc/lanemq/proxy.p12 --lanemq.proxy.tokens-file=/etc/lanemq/tokens.properties
 * }</pre>
 */
@SpringBootApplication
public class ConsumerProxyApplication {
    /**
     * The service's defaults, below every property source a deployment sets (files, environment, arguments).
     * Keep-alive: without a web server nothing else holds the JVM up until the context closes.
     */
    static final Map<String, Object> DEFAULTS = Map.of("spring.main.banner-mode", "off", "spring.main.keep-alive", "true");

    public static void main(String[] args) {
        // RocketMQ's client logs through its own shaded logback, apart from Boot's: keep its files out of ~/logs.
        System.setProperty("rocketmq.log.level", System.getProperty("rocketmq.log.level", "WARN"));
        if (System.getProperty("rocketmq.log.root") == null) {
            System.setProperty("rocketmq.log.root", System.getProperty("java.io.tmpdir") + "/lanemq-rocketmq-logs");
        }
        SpringApplication application = application();
        application.setRegisterShutdownHook(false); // ours below: readiness first, the readiness delay, then the close, bounded
        ConfigurableApplicationContext context = application.run(args);
        ProxyProperties properties = context.getBean(ProxyProperties.class);
        GracefulShutdown.install("lanemq-proxy", context.getBean(Readiness.class), properties.validReadinessDelay(),
                properties.validShutdownGrace(), context::close);
    }

    /** The application with the service's defaults; {@code run(args)} starts it. */
    public static SpringApplication application() {
        SpringApplication application = new SpringApplication(ConsumerProxyApplication.class);
        application.setDefaultProperties(DEFAULTS);
        application.setWebApplicationType(WebApplicationType.NONE);
        return application;
    }
}

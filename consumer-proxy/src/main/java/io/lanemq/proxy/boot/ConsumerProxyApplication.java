package io.lanemq.proxy.boot;

import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The consumer proxy as a Spring Boot service: the gRPC proxy ({@link ProxyLifecycle}) configured by
 * {@code lanemq.proxy.*} ({@link ProxyProperties}), with {@code /actuator/health} and {@code /actuator/prometheus}
 * on the web server. SIGTERM closes the context, which runs the proxy's graceful shutdown first.
 *
 * <pre>{@code
 * java -jar consumer-proxy-exec.jar --lanemq.proxy.config-location=file:/etc/lanemq/platform.yaml \
 *     --lanemq.proxy.tls-key-store=/etc/lanemq/proxy.p12 --lanemq.proxy.tokens-file=/etc/lanemq/tokens.properties
 * }</pre>
 */
@SpringBootApplication
public class ConsumerProxyApplication {
    /**
     * The service's defaults, below every property source a deployment sets (files, environment, arguments):
     * the web server on loopback only, and of actuator only health and prometheus.
     */
    static final Map<String, Object> DEFAULTS = Map.of(
            "server.address", "127.0.0.1",
            "server.port", "9464",
            "management.endpoints.web.exposure.include", "health,prometheus",
            "management.endpoints.web.discovery.enabled", "false",
            "spring.main.banner-mode", "off");

    public static void main(String[] args) {
        // RocketMQ's client logs through its own shaded logback, apart from Boot's: keep its files out of ~/logs.
        System.setProperty("rocketmq.log.level", System.getProperty("rocketmq.log.level", "WARN"));
        if (System.getProperty("rocketmq.log.root") == null) {
            System.setProperty("rocketmq.log.root", System.getProperty("java.io.tmpdir") + "/lanemq-rocketmq-logs");
        }
        application().run(args);
    }

    /** The application with the service's defaults; {@code run(args)} starts it. */
    public static SpringApplication application() {
        SpringApplication application = new SpringApplication(ConsumerProxyApplication.class);
        application.setDefaultProperties(DEFAULTS);
        return application;
    }
}

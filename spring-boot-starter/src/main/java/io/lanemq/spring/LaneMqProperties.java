package io.lanemq.spring;

import io.lanemq.api.ClientOptions;
import io.lanemq.api.ProducerOptions;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code lanemq.*} properties: what {@link ClientOptions} and {@link ProducerOptions} hold, bound
 * from the application's environment. Spring binds into this mutable holder; {@link #clientOptions()}
 * and {@link #producerOptions()} turn it into the SDK's immutable, validated options, and an invalid
 * value fails with an {@link InvalidLaneMqPropertyException} naming the property.
 *
 * <pre>{@code
 * lanemq.application-name=checkout
 * lanemq.config-location=file:/etc/lanemq/platform.yaml
 * lanemq.proxy-token=${LANEMQ_PROXY_TOKEN:}
 * }</pre>
 */
@ConfigurationProperties(prefix = LaneMqProperties.PREFIX)
public class LaneMqProperties {
    public static final String PREFIX = "lanemq";

    /** Whether the starter creates any LaneMQ bean at all. */
    private boolean enabled = true;

    /** The name the application is known by to the platform (also the default producer group prefix). */
    private String applicationName;

    /** Where the platform configuration lives: file:/path/platform.yaml (watched) or etcd://host:2379,host2:2379/key. */
    private String configLocation;

    /** The application's secret for the consumer proxy, needed only by consumer groups in PROXY mode. */
    private String proxyToken;

    /** Extra settings for the SDK core or its RocketMQ binding; unknown names are ignored. */
    private Map<String, String> properties = new LinkedHashMap<>();

    private final Producer producer = new Producer();

    /** The SDK's client options; every problem names the property it comes from. */
    public ClientOptions clientOptions() {
        if (applicationName == null || applicationName.isBlank()) {
            throw new InvalidLaneMqPropertyException(PREFIX + ".application-name",
                    "is required: the name this application is known by to the LaneMQ platform");
        }
        ClientOptions.Builder builder = checked(PREFIX + ".application-name", () -> ClientOptions.builder(applicationName));
        if (configLocation == null || configLocation.isBlank()) {
            throw new InvalidLaneMqPropertyException(PREFIX + ".config-location",
                    "is required: file:/path/platform.yaml or etcd://host:2379/key [application-name=" + applicationName + "]");
        }
        checked(PREFIX + ".config-location", () -> builder.configLocation(configLocation));
        if (proxyToken != null && !proxyToken.isEmpty()) {
            checked(PREFIX + ".proxy-token", () -> builder.proxyToken(proxyToken));
        }
        properties.forEach((name, value) -> checked(PREFIX + ".properties." + name, () -> builder.property(name, value)));
        return builder.build();
    }

    /** The producer's options: {@link ProducerOptions#defaults()} unless {@code lanemq.producer.group} is set. */
    public ProducerOptions producerOptions() {
        if (producer.group == null) {
            return ProducerOptions.defaults();
        }
        return checked(PREFIX + ".producer.group", () -> ProducerOptions.builder().producerGroup(producer.group)).build();
    }

    /** Runs a builder step, naming the property in its error (the SDK names only its own field). */
    private static <T> T checked(String property, Supplier<T> step) {
        try {
            return step.get();
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new InvalidLaneMqPropertyException(property, e.getMessage(), e);
        }
    }

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public String getApplicationName() {
        return applicationName;
    }

    public void setApplicationName(String applicationName) {
        this.applicationName = applicationName;
    }

    public String getConfigLocation() {
        return configLocation;
    }

    public void setConfigLocation(String configLocation) {
        this.configLocation = configLocation;
    }

    public String getProxyToken() {
        return proxyToken;
    }

    public void setProxyToken(String proxyToken) {
        this.proxyToken = proxyToken;
    }

    public Map<String, String> getProperties() {
        return properties;
    }

    public void setProperties(Map<String, String> properties) {
        this.properties = properties;
    }

    public Producer getProducer() {
        return producer;
    }

    /** {@code lanemq.producer.*}: the auto-configured {@link io.lanemq.api.Producer}. */
    public static class Producer {
        /** Whether to create a Producer bean. */
        private boolean enabled = true;

        /** The producer group; unset means "{application-name}-producer". */
        private String group;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public String getGroup() {
            return group;
        }

        public void setGroup(String group) {
            this.group = group;
        }
    }

    @Override
    public String toString() {
        // The proxy token is a secret: never shown.
        return "LaneMqProperties[applicationName=" + applicationName + ", configLocation=" + configLocation
                + ", proxyToken=" + (proxyToken == null || proxyToken.isEmpty() ? "none" : "(set)") + "]";
    }
}

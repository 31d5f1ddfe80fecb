package io.lanemq.api;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a {@link MessagingClient} needs to start: who the application is and where the platform
 * configuration lives. Immutable; build it with {@link #builder(String)}.
 *
 * <p>{@code configLocation} is a URI: {@code file:/path/platform.yaml} (a watched local file) or a
 * config-centre URI understood by the SDK core. A plain path is read as a file.
 */
public final class ClientOptions {
    private final String applicationName;
    private final String configLocation;
    private final Map<String, String> properties;

    private ClientOptions(Builder builder) {
        this.applicationName = builder.applicationName;
        this.configLocation = builder.configLocation;
        this.properties = Collections.unmodifiableMap(new LinkedHashMap<>(builder.properties));
    }

    public static Builder builder(String applicationName) {
        return new Builder(applicationName);
    }

    public String applicationName() {
        return applicationName;
    }

    public String configLocation() {
        return configLocation;
    }

    /** Extra settings for the SDK core or a binding; unknown names are ignored. */
    public Map<String, String> properties() {
        return properties;
    }

    /** Builds {@link ClientOptions}; not thread-safe. */
    public static final class Builder {
        private final String applicationName;
        private String configLocation;
        private final Map<String, String> properties = new LinkedHashMap<>();

        private Builder(String applicationName) {
            this.applicationName = Names.requireName("applicationName", applicationName);
        }

        public Builder configLocation(String configLocation) {
            this.configLocation = Names.requireText("configLocation", configLocation);
            return this;
        }

        public Builder property(String name, String value) {
            Names.requireText("property name", name);
            properties.put(name, Names.requireText("property '" + name + "'", value));
            return this;
        }

        public ClientOptions build() {
            if (configLocation == null) {
                throw new IllegalStateException("configLocation is required [applicationName=" + applicationName + "]");
            }
            return new ClientOptions(this);
        }
    }
}

package io.lanemq.configtool;

import io.lanemq.api.ClientOptions;

/** The SDK client options of a command that acts on the platform as an application would (seek, dlq replay). */
final class ToolClients {
    private ToolClients() {
    }

    /** No configuration snapshots: the tool runs once and must not leave files behind or start from a stale copy. */
    static ClientOptions options(String configLocation, String environment) {
        ClientOptions.Builder options = ClientOptions.builder("lanemq-config").configLocation(configLocation).noConfigSnapshots();
        if (environment != null) {
            options.environment(environment);
        }
        return options.build();
    }
}

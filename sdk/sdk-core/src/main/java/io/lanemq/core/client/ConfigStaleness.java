package io.lanemq.core.client;

import io.lanemq.api.ClientHealth;
import io.lanemq.config.ConfigDocument;
import io.lanemq.config.PlatformConfig;
import java.util.Optional;

/**
 * Whether a configuration in force is its source's current document or the local snapshot a process started on while
 * etcd was unreachable, in the words every LaneMQ component uses: the client's health and the services' {@code /readyz}.
 */
public final class ConfigStaleness {
    private ConfigStaleness() {
    }

    /** Present when {@code config} was read from the local snapshot: since when it is stale, and its revision. */
    public static Optional<ClientHealth.Stale> of(PlatformConfig config) {
        return config.document().filter(ConfigDocument::stale)
                .map(document -> new ClientHealth.Stale(document.snapshotAt().orElseThrow(), document.revision()));
    }

    /**
     * One line for a service's health text, e.g. {@code configuration etcd://10.0.0.1:2379/lanemq/platform/prod: stale since
     * 2026-11-28T17:00:00Z, revision 42 (local snapshot; etcd unreachable since start, retrying)}.
     */
    public static String describe(ClientHealth.Configuration configuration) {
        StringBuilder line = new StringBuilder("configuration ").append(configuration.location()).append(": ");
        configuration.stale().ifPresentOrElse(
                stale -> line.append(stale).append(" (local snapshot; etcd unreachable since start, retrying)"),
                () -> line.append(configuration.connected() ? "current" : "source unreachable, changes wait"));
        configuration.lastRejection().ifPresent(rejection -> line.append("; last change rejected at ").append(rejection.at()));
        return line.toString();
    }
}

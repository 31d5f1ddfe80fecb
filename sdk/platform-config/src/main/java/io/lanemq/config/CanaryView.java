package io.lanemq.config;

import io.lanemq.api.InvalidConfigurationException;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one client runs, from the configuration and the {@link Canary} beside it: the candidate while the canary
 * chooses this client and was made from the configuration in force, else the configuration.
 *
 * <p>A source reads the two from two places (two etcd keys, two files), each on its own watch thread; both feed this
 * view, which hands each resulting document to the {@link SnapshotDelivery} under its lock, so the listener is called
 * one change at a time, in order. A promotion reaches a chosen client as the configuration becoming the candidate and
 * the canary vanishing, in either order (see {@link #canaryAbsent(Optional, String)}); it runs the candidate's text
 * throughout and is told once that it is now the configuration. An
 * unreadable canary counts as none (logged once per revision): the configuration is what every client can fall back on.
 */
final class CanaryView {
    private static final Logger LOG = LoggerFactory.getLogger(CanaryView.class);

    private final Optional<ClientIdentity> client;
    private final SnapshotDelivery delivery;
    /** Names the canary in messages, at a revision. */
    private final LongFunction<String> canaryOrigin;
    private ConfigDocument configuration;
    private String configurationOrigin;
    private Canary canary;
    private long canaryRevision;

    CanaryView(Optional<ClientIdentity> client, SnapshotDelivery delivery, LongFunction<String> canaryOrigin) {
        this.client = Objects.requireNonNull(client, "client");
        this.delivery = Objects.requireNonNull(delivery, "delivery");
        this.canaryOrigin = Objects.requireNonNull(canaryOrigin, "canaryOrigin");
    }

    /**
     * The document {@code client} runs: the candidate of {@code canary} (at {@code canaryRevision}) when it applies,
     * else {@code configuration}. A client without an identity is never chosen.
     */
    static ConfigDocument resolve(Optional<ClientIdentity> client, ConfigDocument configuration, Optional<Canary> canary,
                                  long canaryRevision) {
        if (canary.isPresent() && client.isPresent() && canary.get().appliesTo(client.get(), configuration.revision())) {
            return ConfigDocument.candidate(configuration.source(), configuration.key(), canaryRevision, canary.get().document());
        }
        return configuration;
    }

    /** Reads a canary's text, or empty (logged) when it is none. */
    static Optional<Canary> read(String text, String origin) {
        try {
            return Optional.of(Canary.parse(text, origin));
        } catch (InvalidConfigurationException e) {
            // Once per canary revision (the origin names it): bounded by how often operators publish.
            LOG.warn("{}; every client runs the configuration instead", e.getMessage());
            return Optional.empty();
        }
    }

    /** What the caller already runs, known from its load: sets the state without delivering. */
    synchronized void seed(ConfigDocument configuration, String origin, Optional<Canary> canary, long canaryRevision) {
        this.configuration = configuration;
        this.configurationOrigin = origin;
        this.canary = canary.orElse(null);
        this.canaryRevision = canaryRevision;
    }

    synchronized void configuration(ConfigDocument next, String origin) {
        configuration = next;
        configurationOrigin = origin;
        deliver();
    }

    synchronized void configurationAbsent(InvalidConfigurationException why, String origin) {
        configuration = null;
        delivery.offerAbsent(why, origin);
    }

    synchronized void canary(String text, long revision) {
        canary = read(text, canaryOrigin.apply(revision)).orElse(null);
        canaryRevision = revision;
        deliver();
    }

    synchronized void canaryAbsent() {
        canaryAbsent(Optional.empty(), null);
    }

    /**
     * The canary is gone, and the configuration is {@code configurationNow} (read when the canary's deletion was seen),
     * when that is newer than the one known: a promotion deletes the canary and writes the configuration in one etcd
     * transaction, but the two watches may report them in either order, and a chosen client must go from the candidate
     * to the promoted configuration, not back to the old one for a moment.
     */
    synchronized void canaryAbsent(Optional<ConfigDocument> configurationNow, String origin) {
        canary = null;
        canaryRevision = 0;
        if (configurationNow.isPresent() && configuration != null
                && configurationNow.get().revision() > configuration.revision()) {
            configuration = configurationNow.get();
            configurationOrigin = origin;
        }
        deliver();
    }

    /** Nothing to deliver until the configuration is known: a canary alone is not a configuration. */
    private void deliver() {
        if (configuration == null) {
            return;
        }
        ConfigDocument runs = resolve(client, configuration, Optional.ofNullable(canary), canaryRevision);
        delivery.offer(runs, runs.canary() ? canaryOrigin.apply(canaryRevision) : configurationOrigin);
    }
}

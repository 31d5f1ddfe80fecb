package io.lanemq.core.client;

import io.lanemq.api.ClientHealth;
import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.config.ConfigDocument;
import io.lanemq.config.ConfigListener;
import io.lanemq.config.ConfigSubscriber;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.PlatformConfigRef;
import io.lanemq.core.metrics.SdkMetrics;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies configuration changes to a running client: a change the running producers and
 * consumers can follow swaps the snapshot and re-points each of them; any other change is
 * rejected, the last good snapshot stays in force, and the rejection shows in a metric and in
 * {@link #lastRejection()} until a later change applies. {@link #health()} adds when each happened, on the client's
 * wall clock, and whether the configuration in force is a local snapshot (the source was unreachable at start) rather
 * than the source's current document. Each configuration applied is handed back to the source
 * ({@code ConfigSource.applied}), which keeps it as the snapshot a later start can use.
 */
final class ConfigReloader implements ConfigListener {
    private static final Logger log = LoggerFactory.getLogger(ConfigReloader.class);

    private final String source;
    /** Whether the source can deliver changes now ({@code ConfigSource.isConnected}). */
    private final BooleanSupplier sourceConnected;
    /** Told of every configuration applied: the source keeps it as its snapshot. */
    private final Consumer<PlatformConfig> applied;
    private final PlatformConfigRef config;
    private final Supplier<List<ConfigSubscriber>> subscribers;
    private final SdkMetrics metrics;
    private final InstantSource wallClock;
    /** Written together with {@link #lastRejection} by the source's one thread; read by any. */
    private volatile Instant lastApplied;
    private volatile InvalidConfigurationException lastRejection;
    private volatile Instant lastRejectedAt;

    ConfigReloader(String source, BooleanSupplier sourceConnected, PlatformConfigRef config, Supplier<List<ConfigSubscriber>> subscribers, SdkMetrics metrics,
                   InstantSource wallClock) {
        this(source, sourceConnected, applied -> { }, config, subscribers, metrics, wallClock);
    }

    /**
     * @param applied   told of each configuration that took effect through this reloader
     * @param wallClock when a change took effect or was refused; the snapshot in force took effect now
     */
    ConfigReloader(String source, BooleanSupplier sourceConnected, Consumer<PlatformConfig> applied, PlatformConfigRef config,
                   Supplier<List<ConfigSubscriber>> subscribers, SdkMetrics metrics, InstantSource wallClock) {
        this.source = source;
        this.sourceConnected = sourceConnected;
        this.applied = applied;
        this.config = config;
        this.subscribers = subscribers;
        this.metrics = metrics;
        this.wallClock = wallClock;
        this.lastApplied = wallClock.instant();
        metrics.reloadHealthGauge(() -> lastRejection == null ? 0 : 1);
        metrics.configStaleGauge(() -> stale().isPresent() ? 1 : 0);
        metrics.configRevisionGauge(() -> config.current().document().map(ConfigDocument::revision).orElse(0L));
        metrics.configCanaryGauge(() -> config.current().document().filter(ConfigDocument::canary).isPresent() ? 1 : 0);
    }

    @Override
    public synchronized void onChange(PlatformConfig next) {
        List<ConfigSubscriber> running = subscribers.get();
        List<String> conflicts = new ArrayList<>();
        running.forEach(subscriber -> conflicts.addAll(subscriber.conflicts(next)));
        if (!conflicts.isEmpty()) {
            onRejected(new InvalidConfigurationException("configuration change from " + source
                    + " rejected, it conflicts with what runs: " + String.join("; ", conflicts)));
            return;
        }
        PlatformConfig previous = config.current();
        config.swap(next);
        for (ConfigSubscriber subscriber : running) {
            try {
                subscriber.apply(previous, next);
            } catch (RuntimeException e) {
                // The snapshot is in force; this component keeps its old connections until the next change.
                log.error("applying the configuration change from {} to {} failed", source, subscriber, e);
            }
        }
        lastApplied = wallClock.instant();
        lastRejection = null;
        metrics.reloaded(true);
        log.info("configuration change from {}{} applied to {} running producers and consumers", source,
                next.document().map(d -> " (" + (d.canary() ? "canary " : "") + "revision " + d.revision() + ")").orElse(""),
                running.size());
        previous.document().filter(ConfigDocument::stale).ifPresent(snapshot -> log.info("the configuration from {} is current "
                + "again; the client ran on its snapshot of revision {} (written {}) since it started", source,
                snapshot.revision(), snapshot.snapshotAt().orElseThrow()));
        applied.accept(next);
    }

    @Override
    public void onRejected(InvalidConfigurationException reason) {
        lastRejectedAt = wallClock.instant();
        lastRejection = reason;
        metrics.reloaded(false);
        log.warn("{}; the last good configuration stays in force", reason.getMessage());
    }

    /** Why the last change was rejected, while no later change has applied. */
    Optional<InvalidConfigurationException> lastRejection() {
        return Optional.ofNullable(lastRejection);
    }

    /** The source's part of the client's health. */
    ClientHealth.Configuration health() {
        Instant applied = lastApplied;
        InvalidConfigurationException rejection = lastRejection;
        // The time is written before the rejection, so a rejection seen here has its own time or a later one.
        Instant rejectedAt = lastRejectedAt;
        return new ClientHealth.Configuration(source, applied, rejection == null ? Optional.empty()
                : Optional.of(new ClientHealth.Rejection(rejection.getMessage(), rejectedAt)), sourceConnected.getAsBoolean(),
                stale());
    }

    /** Present while the configuration in force came from the local snapshot, not from the source. */
    private Optional<ClientHealth.Stale> stale() {
        return ConfigStaleness.of(config.current());
    }
}

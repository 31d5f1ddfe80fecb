package io.lanemq.core.internal;

import io.lanemq.config.PlatformConfigRef;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.support.Clocks;
import io.micrometer.observation.ObservationRegistry;
import java.util.Objects;

/**
 * What one client shares with every producer and consumer it creates, handed down as one value instead of one
 * argument each: the configuration in force, the meters, the clocks and where sends and listener runs are observed.
 *
 * @param config       the platform configuration snapshot in force, swapped on each applied change
 * @param metrics      the client's meters
 * @param clocks       the one monotonic and wall clock of the client and everything it creates
 * @param observations where sends and listener runs are observed; {@link ObservationRegistry#NOOP} unless the
 *                     application gave one
 */
public record ClientContext(PlatformConfigRef config, SdkMetrics metrics, Clocks clocks, ObservationRegistry observations) {
    public ClientContext {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(metrics, "metrics");
        Objects.requireNonNull(clocks, "clocks");
        Objects.requireNonNull(observations, "observations");
    }
}

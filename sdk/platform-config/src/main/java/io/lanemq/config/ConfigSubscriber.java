package io.lanemq.config;

import java.util.List;

/**
 * A running component that follows configuration reloads (producers, consumers). The reloader
 * first asks every subscriber for {@link #conflicts}; only if none objects does it swap the
 * snapshot and call {@link #apply} on each.
 */
public interface ConfigSubscriber {
    /**
     * Why {@code next} cannot be applied while this component runs (e.g. it removes the logic
     * topic a live consumer reads); empty when it can.
     */
    default List<String> conflicts(PlatformConfig next) {
        return List.of();
    }

    /** Re-points the component at {@code next}; called after the snapshot reference was swapped. */
    void apply(PlatformConfig previous, PlatformConfig next);
}

package io.lanemq.proxy;

import io.lanemq.config.ConsumerConfig;

/**
 * Per-group flow control.
 *
 * @param maxInFlight  the most messages the proxy holds for the group (fetched, not yet acked or dead-lettered)
 * @param maxPerSecond the most messages per second fetched for the group; 0 is unlimited
 */
public record GroupLimits(int maxInFlight, int maxPerSecond) {
    public static final GroupLimits DEFAULTS = new GroupLimits(2_000, 0);

    /**
     * The limits a group runs with: what the platform configuration sets for it
     * ({@code consumerGroups.<group>.maxInFlight / maxPerSecond}), and the proxy's own setting where it sets nothing.
     */
    static GroupLimits of(ConsumerConfig platform, GroupLimits proxyDefault) {
        return new GroupLimits(platform.maxInFlight() > 0 ? platform.maxInFlight() : proxyDefault.maxInFlight(),
                platform.maxPerSecond() > 0 ? platform.maxPerSecond() : proxyDefault.maxPerSecond());
    }

    public GroupLimits {
        if (maxInFlight < 1) {
            throw new IllegalArgumentException("maxInFlight must be at least 1, was " + maxInFlight);
        }
        if (maxPerSecond < 0) {
            throw new IllegalArgumentException("maxPerSecond must be 0 (unlimited) or positive, was " + maxPerSecond);
        }
    }
}

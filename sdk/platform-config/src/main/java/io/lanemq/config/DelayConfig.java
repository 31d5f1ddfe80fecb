package io.lanemq.config;

import java.time.Duration;

/**
 * How delayed messages travel: the SDK sends each to {@code internalTopic} on the cluster its
 * routing chose, where the delay servers (consumer group {@code serverGroup}) hold it until due.
 *
 * @param internalTopic the delay servers' topic, same name on every cluster
 * @param serverGroup   the delay servers' consumer group on that topic
 * @param maxDelay      the furthest ahead a due time may be; a send beyond it is refused before anything is sent
 * @param cancelTimeout how long a cancel waits for the delay server's answer
 */
public record DelayConfig(String internalTopic, String serverGroup, Duration maxDelay, Duration cancelTimeout) {
    /** Two years: further ahead than any business delay we know of, well within the engine's range. */
    public static final DelayConfig DEFAULTS = new DelayConfig("LANEMQ_DELAY", "LANEMQ_DELAY_SERVER",
            Duration.ofDays(730), Duration.ofSeconds(3));
}

package io.lanemq.core.internal.produce;

import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.lanemq.config.LogicTopicConfig;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The send rate limit of each logic topic, shared by every producer of one client. The limit is
 * read from the snapshot a send works on, so a reload changes it in place.
 */
public final class TopicRateLimits {
    /** A permit is free now. */
    static final long NOW = 0;
    /** No permit within the wait allowed. */
    static final long REFUSED = -1;

    private final Map<String, RateLimiter> byTopic = new ConcurrentHashMap<>();

    /**
     * Reserves a permit for one send.
     *
     * @return {@link #NOW}, the nanoseconds to wait before sending, or {@link #REFUSED} when no
     *         permit comes within {@code maxWait}
     */
    public long reserve(LogicTopicConfig topic, Duration maxWait) {
        int limit = topic.rateLimitPerSecond();
        if (limit <= 0) {
            return NOW;
        }
        RateLimiter limiter = byTopic.computeIfAbsent(topic.name(), name -> RateLimiter.of("lanemq-" + name,
                RateLimiterConfig.custom().limitForPeriod(limit).limitRefreshPeriod(Duration.ofSeconds(1))
                        .timeoutDuration(maxWait).build()));
        if (limiter.getRateLimiterConfig().getLimitForPeriod() != limit) {
            limiter.changeLimitForPeriod(limit);
        }
        if (!limiter.getRateLimiterConfig().getTimeoutDuration().equals(maxWait)) {
            limiter.changeTimeoutDuration(maxWait);
        }
        long wait = limiter.reservePermission();
        return wait < 0 ? REFUSED : wait;
    }
}

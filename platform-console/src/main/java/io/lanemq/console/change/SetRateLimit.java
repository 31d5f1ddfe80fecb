package io.lanemq.console.change;

import io.lanemq.config.InvalidPlatformConfigException;
import io.lanemq.config.PlatformConfig;

/** One logic topic's send rate limit per client ({@code rateLimitPerSecond}; 0 is unlimited). */
public record SetRateLimit(String topic, int perSecond) implements Change {
    @Override
    public String describe() {
        return "rate limit of " + topic + " to " + (perSecond == 0 ? "unlimited" : perSecond + "/s");
    }

    @Override
    public Scope scope() {
        return Scope.topic(topic);
    }

    @Override
    public PlatformConfig.Builder applyTo(PlatformConfig current) throws InvalidPlatformConfigException {
        return Configs.toBuilder(current).topic(PutTopic.existing(current, topic).withRateLimit(perSecond));
    }
}

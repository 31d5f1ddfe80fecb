package io.lanemq.console.change;

import io.lanemq.config.InvalidPlatformConfigException;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.store.DocumentText;

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
    public DocumentText applyTo(DocumentText document, PlatformConfig current) throws InvalidPlatformConfigException {
        return PutTopic.existing(current, topic).rateLimitPerSecond() == perSecond ? document
                : document.with(Configs.topic(topic, "rateLimitPerSecond"), perSecond);
    }
}

package io.lanemq.core.internal.produce;

import io.lanemq.api.InvalidMessageException;
import io.lanemq.api.Message;
import io.lanemq.api.UnknownTopicException;
import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.PlatformConfig;
import java.time.Duration;
import java.time.InstantSource;

/**
 * The checks a send passes before any network call. The message builder already checked each
 * field's shape; what is checked here depends on the platform configuration.
 */
final class SendValidator {
    private SendValidator() {
    }

    /**
     * @param stressTest whether the send is stress-test traffic, which only a logic topic with a shadow
     *                   topic takes: sent anywhere else it would mix with production messages
     * @param wallClock  what a delayed message's {@code deliverAt} is measured against
     */
    static LogicTopicConfig check(PlatformConfig config, Message message, boolean stressTest, InstantSource wallClock)
            throws UnknownTopicException, InvalidMessageException {
        LogicTopicConfig topic = config.topic(message.logicTopic()).orElseThrow(() -> new UnknownTopicException(
                "unknown logic topic; the platform configuration has " + config.topics().keySet(), message.logicTopic()));
        if (stressTest && !topic.stressTest()) {
            throw new InvalidMessageException("stress-test message refused: logic topic '" + topic.name()
                    + "' does not take stress-test traffic (topics." + topic.name() + ".stressTest is false), and stress-test"
                    + " traffic must never reach a production topic; nothing was sent", message.logicTopic());
        }
        int max = config.producer().maxBodyBytes();
        if (message.bodyLength() > max) {
            throw new InvalidMessageException("body is " + message.bodyLength() + " bytes, over the maximum of " + max
                    + " (producer.maxBodyBytes)", message.logicTopic());
        }
        if (message.deliverAt().isPresent()) {
            Duration ahead = Duration.between(wallClock.instant(), message.deliverAt().get());
            Duration maxDelay = config.delay().maxDelay();
            if (ahead.compareTo(maxDelay) > 0) {
                throw new InvalidMessageException("deliverAt " + message.deliverAt().get() + " is " + ahead.toMillis()
                        + " ms ahead, over the maximum delay of " + maxDelay.toMillis() + " ms (delay.maxDelayMs)",
                        message.logicTopic());
            }
        }
        return topic;
    }
}

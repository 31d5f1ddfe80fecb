package io.lanemq.core.internal.lane;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.ReceivedMessage;

/** Hands a message to another member of its consumer group and returns what that member's listener answered. */
@FunctionalInterface
interface LaneForwarder {
    /** @throws Exception the member could not be reached or did not answer in time; the message was not acknowledged */
    ConsumeResult forward(LaneMember target, String consumerGroup, ReceivedMessage message) throws Exception;
}

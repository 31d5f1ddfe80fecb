package io.lanemq.core.internal.lane.forward;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.ReceivedMessage;

/**
 * What a {@link LaneForwardServer} does with a forwarded message: typically hand it to the listener this
 * instance runs for the group. Called on the server's own bounded executor, several calls at a time, so
 * an implementation must be thread-safe; it may block for as long as the listener takes.
 *
 * <p>An exception thrown here (a listener that failed) is answered with {@link ConsumeResult#RETRY_LATER}.
 */
@FunctionalInterface
public interface LaneForwardHandler {
    /**
     * @throws UnknownGroupException when this instance does not consume {@code consumerGroup} on
     *         {@code logicTopic}; the caller gets {@code NOT_FOUND}
     */
    ConsumeResult consume(String consumerGroup, String logicTopic, ReceivedMessage message) throws UnknownGroupException;
}

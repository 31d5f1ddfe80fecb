package io.lanemq.core.internal.lane.forward;

/** A forwarded message names a consumer group (or logic topic) this instance does not consume. */
public final class UnknownGroupException extends Exception {
    public UnknownGroupException(String consumerGroup, String logicTopic) {
        super("no consumer of group " + consumerGroup + " on logic topic " + logicTopic + " runs in this instance");
    }
}

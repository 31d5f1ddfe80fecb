package io.lanemq.proxy;

/** A consumer group of a logic topic: what one set of RocketMQ consumers and one dispatcher serve. */
record GroupKey(String logicTopic, String consumerGroup) {
    @Override
    public String toString() {
        return consumerGroup + "@" + logicTopic;
    }
}

package io.lanemq.spring;

import io.lanemq.api.Message;
import io.lanemq.api.ReceivedMessage;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/** A message as a listener receives it, built from a sent {@link Message}: what the starter's logic tests hand their listeners. */
record TestMessage(Message sent, String messageId, int deliveryAttempt, OptionalInt maxDeliveryAttempts) implements ReceivedMessage {
    static TestMessage of(Message sent) {
        return new TestMessage(sent, "id-1", 1, OptionalInt.of(3));
    }

    TestMessage attempt(int attempt) {
        return new TestMessage(sent, messageId, attempt, maxDeliveryAttempts);
    }

    @Override
    public String logicTopic() {
        return sent.logicTopic();
    }

    @Override
    public byte[] body() {
        return sent.body();
    }

    @Override
    public List<String> keys() {
        return sent.keys();
    }

    @Override
    public Optional<String> tag() {
        return sent.tag();
    }

    @Override
    public Map<String, String> properties() {
        return sent.properties();
    }

    @Override
    public Optional<String> shardingKey() {
        return sent.shardingKey();
    }

    @Override
    public String cluster() {
        return "cluster-a";
    }

    @Override
    public String physicalTopic() {
        return sent.logicTopic();
    }

    @Override
    public int queueId() {
        return 0;
    }

    @Override
    public long queueOffset() {
        return 0;
    }

    @Override
    public long bornTimestamp() {
        return 1_700_000_000_000L;
    }
}

package io.lanemq.configtool;

import io.lanemq.api.Deduplication;
import io.lanemq.api.Message;
import io.lanemq.api.spi.BoundMessage;
import io.lanemq.rocketmq.DeadLetter;

/**
 * The message a dead letter is replayed as: sent to its logic topic with its body, keys, tag, sharding key and user
 * properties, so it keeps its lane and stress-test marks ({@link io.lanemq.api.MessageContext}'s properties) and its
 * trace context, and with its original message id in {@link Deduplication#ORIGINAL_MESSAGE_ID_PROPERTY}, so a
 * deduplicating group recognises every replay of it as the same message. A replay of a replay keeps the first id.
 */
final class ReplayedMessage {
    private ReplayedMessage() {
    }

    static Message of(String logicTopic, DeadLetter letter) {
        BoundMessage dead = letter.message();
        Message.Builder replay = Message.builder(logicTopic).body(dead.body());
        if (!dead.keys().isEmpty()) {
            replay.keys(dead.keys().toArray(String[]::new));
        }
        dead.tag().ifPresent(replay::tag);
        dead.shardingKey().ifPresent(replay::shardingKey);
        dead.properties().forEach(replay::property);
        replay.property(Deduplication.ORIGINAL_MESSAGE_ID_PROPERTY, originalId(letter));
        return replay.build();
    }

    /** The id deduplication knows the message by. */
    static String originalId(DeadLetter letter) {
        return letter.message().properties().getOrDefault(Deduplication.ORIGINAL_MESSAGE_ID_PROPERTY, letter.message().messageId());
    }
}

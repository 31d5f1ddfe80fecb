package io.lanemq.api;

/** The logic topic, or the consumer group on it, is not in the platform configuration; nothing was sent. */
public class UnknownTopicException extends MessagingException {
    public UnknownTopicException(String reason, String logicTopic) {
        super(reason, logicTopic, null);
    }
}

package io.lanemq.api;

/**
 * The brokers did not acknowledge the message. The message may or may not have been stored:
 * a sender that retries must expect a duplicate, which at-least-once consumers absorb.
 */
public class SendFailedException extends MessagingException {
    public SendFailedException(String reason, String logicTopic, String cluster, Throwable cause) {
        super(reason, logicTopic, cluster, cause);
    }
}

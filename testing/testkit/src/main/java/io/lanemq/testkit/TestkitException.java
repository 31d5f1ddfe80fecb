package io.lanemq.testkit;

/**
 * Thrown when the testkit cannot start, stop or configure a RocketMQ server. The message names the node
 * (for example {@code idc-a/idc-a-broker-0}) and, for a failed start, ends with the tail of its log.
 */
public class TestkitException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public TestkitException(String message) {
        super(message);
    }

    public TestkitException(String message, Throwable cause) {
        super(message, cause);
    }
}

package io.lanemq.dialtest;

/** Input the ack channel drops, with the reason it is counted under. */
final class AckFrameException extends Exception {

    private static final long serialVersionUID = 1L;

    private final transient AckRejection reason;
    private final boolean connectionUsable;

    /**
     * @param connectionUsable whether the stream can still be read after this: only when the frame's end is known
     *                         and its sender authenticated
     */
    AckFrameException(AckRejection reason, String message, boolean connectionUsable) {
        super(message, null, false, false);
        this.reason = reason;
        this.connectionUsable = connectionUsable;
    }

    AckRejection reason() {
        return reason;
    }

    boolean connectionUsable() {
        return connectionUsable;
    }
}

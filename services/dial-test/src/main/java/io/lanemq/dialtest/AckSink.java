package io.lanemq.dialtest;

/** Where the ack listener hands authentic, well-formed frames. Implementations are thread-safe. */
interface AckSink {

    /** What became of an ack. */
    enum Outcome {
        /** A probe of this run: counted (as acked, duplicated or late). */
        MATCHED,
        /** Another run's ack. */
        UNKNOWN_RUN,
        /** This run, but a sequence it does not know (never tracked, or forgotten after retention). */
        UNKNOWN_PROBE
    }

    /**
     * @param receivedNanos when the listener read the frame, on the run's {@link io.lanemq.support.Ticker}
     */
    Outcome onAck(AckFrame frame, long receivedNanos);
}

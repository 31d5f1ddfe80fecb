package io.lanemq.benchmarks.produce;

/** One synchronous send; throws when the send failed. */
@FunctionalInterface
public interface SendLoop {
    void sendOne() throws Exception;
}

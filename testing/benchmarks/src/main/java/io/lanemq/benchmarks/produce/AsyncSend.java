package io.lanemq.benchmarks.produce;

import java.util.concurrent.CompletionStage;

/** Starts one asynchronous send; its stage completes when the send is answered, exceptionally when it failed. */
@FunctionalInterface
public interface AsyncSend {
    CompletionStage<?> start();
}

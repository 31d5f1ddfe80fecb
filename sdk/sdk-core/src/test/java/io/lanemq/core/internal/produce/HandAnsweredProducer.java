package io.lanemq.core.internal.produce;

import io.lanemq.api.spi.BoundLocalTransaction;
import io.lanemq.api.spi.BoundProducer;
import io.lanemq.api.spi.BoundSendResult;
import io.lanemq.api.spi.PhysicalMessage;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A binding producer whose requests stay out until the test answers them. Thread-safe: a linger sends from the JDK's
 * delay thread.
 */
final class HandAnsweredProducer implements BoundProducer {
    final List<CompletableFuture<BoundSendResult>> singles = new CopyOnWriteArrayList<>();
    final List<CompletableFuture<List<BoundSendResult>>> batches = new CopyOnWriteArrayList<>();
    final List<List<PhysicalMessage>> batchMessages = new CopyOnWriteArrayList<>();

    @Override
    public BoundSendResult send(PhysicalMessage message) {
        throw new UnsupportedOperationException();
    }

    @Override
    public CompletableFuture<BoundSendResult> sendAsync(PhysicalMessage message) {
        CompletableFuture<BoundSendResult> answer = new CompletableFuture<>();
        singles.add(answer);
        return answer;
    }

    @Override
    public CompletableFuture<List<BoundSendResult>> sendBatchAsync(List<PhysicalMessage> messages) {
        CompletableFuture<List<BoundSendResult>> answer = new CompletableFuture<>();
        batchMessages.add(List.copyOf(messages));
        batches.add(answer);
        return answer;
    }

    @Override
    public BoundSendResult sendInTransaction(PhysicalMessage message, BoundLocalTransaction transaction) {
        throw new UnsupportedOperationException();
    }

    @Override
    public byte[] request(PhysicalMessage message, Duration timeout) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void close() {
    }
}

package io.lanemq.testkit.memory;

import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.api.MessagingException;
import io.lanemq.api.SendFailedException;
import io.lanemq.api.TransactionResolution;
import io.lanemq.api.spi.BoundLocalTransaction;
import io.lanemq.api.spi.BoundProducer;
import io.lanemq.api.spi.BoundProducerSpec;
import io.lanemq.api.spi.BoundSendResult;
import io.lanemq.api.spi.PhysicalMessage;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/** A producer on one {@link MemoryCluster}; the blocking calls wait as a broker client would, up to the send timeout. */
final class MemoryProducer implements BoundProducer {
    private final MemoryCluster cluster;
    private final BoundProducerSpec spec;
    private final ScheduledExecutorService timers;
    private volatile boolean open = true;

    MemoryProducer(MemoryCluster cluster, BoundProducerSpec spec, ScheduledExecutorService timers) {
        this.cluster = cluster;
        this.spec = spec;
        this.timers = timers;
    }

    BoundProducerSpec spec() {
        return spec;
    }

    boolean isOpen() {
        return open;
    }

    @Override
    public BoundSendResult send(PhysicalMessage message) throws MessagingException {
        return await(sendAsync(message), spec.sendTimeout(), "send to topic " + message.topic());
    }

    @Override
    public CompletableFuture<BoundSendResult> sendAsync(PhysicalMessage message) {
        if (!open) {
            return CompletableFuture.failedFuture(closed(message));
        }
        return answered(SendRecord.Kind.SEND, message, () -> cluster.store(message));
    }

    @Override
    public CompletableFuture<List<BoundSendResult>> sendBatchAsync(List<PhysicalMessage> messages) {
        if (!open) {
            return CompletableFuture.failedFuture(closed(messages.get(0)));
        }
        return answered(cluster.answer(SendRecord.Kind.BATCH, messages), () -> cluster.storeBatch(messages));
    }

    @Override
    public BoundSendResult sendInTransaction(PhysicalMessage message, BoundLocalTransaction transaction)
            throws MessagingException {
        if (spec.transactionCheckHandler().isEmpty()) {
            throw new InvalidConfigurationException("producer group '" + spec.producerGroup() + "' on cluster '"
                    + cluster.name() + "' has no transaction checker, so it cannot send transactions");
        }
        if (!open) {
            throw closed(message);
        }
        BoundSendResult prepared = await(answered(SendRecord.Kind.TRANSACTION, message,
                () -> cluster.prepare(spec.producerGroup(), message)), spec.sendTimeout(), "prepared send to topic " + message.topic());
        TransactionResolution resolution;
        try {
            resolution = transaction.execute(prepared);
        } catch (RuntimeException e) {
            resolution = TransactionResolution.UNKNOWN; // as RocketMQ: the broker checks it back
        }
        if (cluster.transactionEndsFail()) {
            throw new SendFailedException("the end of the transaction of message " + prepared.messageId()
                    + " was lost (injected); it stays prepared until a check-back", null, cluster.name(), null);
        }
        return cluster.end(prepared.messageId(), resolution == null ? TransactionResolution.UNKNOWN : resolution)
                .orElse(prepared);
    }

    @Override
    public byte[] request(PhysicalMessage message, Duration timeout) throws MessagingException {
        if (!open) {
            throw closed(message);
        }
        CompletableFuture<byte[]> reply = answered(SendRecord.Kind.REQUEST, message, () -> cluster.store(message))
                .thenCompose(stored -> cluster.responder(message.topic())
                        .map(responder -> CompletableFuture.completedFuture(responder.apply(message)))
                        .orElseGet(CompletableFuture::new)); // nobody answers this topic: no reply
        return await(reply, timeout, "reply to the request on topic " + message.topic());
    }

    /** The cluster's answer to a send now starting, as a future: never completed while it is silent. */
    private <T> CompletableFuture<T> answered(SendRecord.Kind kind, PhysicalMessage message, Supplier<T> store) {
        return answered(cluster.answer(kind, message), store);
    }

    private <T> CompletableFuture<T> answered(MemoryCluster.Answer answer, Supplier<T> store) {
        if (answer.silent()) {
            return new CompletableFuture<>();
        }
        if (answer.gate() != null) {
            // The same answer, once the test releases it: the gate carries no fault of its own.
            MemoryCluster.Answer released = new MemoryCluster.Answer(answer.failure(), answer.delay(), null);
            return answer.gate().thenComposeAsync(ignored -> answered(released, store), timers);
        }
        if (answer.failure() != null) {
            return CompletableFuture.failedFuture(answer.failure());
        }
        if (answer.delay().isZero()) {
            return CompletableFuture.completedFuture(store.get());
        }
        CompletableFuture<T> late = new CompletableFuture<>();
        timers.schedule(() -> late.complete(store.get()), answer.delay().toNanos(), TimeUnit.NANOSECONDS);
        return late;
    }

    private <T> T await(CompletableFuture<T> answer, Duration timeout, String what) throws MessagingException {
        try {
            return answer.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof MessagingException failure) {
                throw failure;
            }
            throw new SendFailedException(what + " failed: " + e.getCause(), null, cluster.name(), e.getCause());
        } catch (TimeoutException e) {
            throw new SendFailedException("no answer to the " + what + " within " + timeout.toMillis() + " ms", null,
                    cluster.name(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SendFailedException("interrupted waiting for the " + what, null, cluster.name(), e);
        }
    }

    private SendFailedException closed(PhysicalMessage message) {
        return new SendFailedException("producer of group '" + spec.producerGroup() + "' is closed (topic "
                + message.topic() + ")", null, cluster.name(), null);
    }

    @Override
    public void close() {
        open = false;
    }
}

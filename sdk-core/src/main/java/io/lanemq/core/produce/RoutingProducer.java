package io.lanemq.core.produce;

import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.api.LocalTransaction;
import io.lanemq.api.Message;
import io.lanemq.api.MessagingException;
import io.lanemq.api.Producer;
import io.lanemq.api.SendFailedException;
import io.lanemq.api.SendResult;
import io.lanemq.api.TransactionChecker;
import io.lanemq.api.TransactionResolution;
import io.lanemq.api.spi.BoundLocalTransaction;
import io.lanemq.api.spi.BoundSendResult;
import io.lanemq.api.spi.PhysicalMessage;
import io.lanemq.core.config.LogicTopicConfig;
import io.lanemq.core.config.PlatformConfig;
import io.lanemq.core.config.PlatformConfigRef;
import io.lanemq.core.config.TopicRoute;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.core.routing.ClusterChooser;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The application's producer: validates each message against the current configuration
 * snapshot, picks the cluster of its logic topic, and sends through that cluster's bound
 * producer. Each send reads the snapshot once, so a reload never splits one send across two.
 */
public final class RoutingProducer implements Producer {
    private static final Logger log = LoggerFactory.getLogger(RoutingProducer.class);

    private final String producerGroup;
    private final Optional<TransactionChecker> transactionChecker;
    private final PlatformConfigRef config;
    private final ClusterChooser chooser;
    private final ClusterProducers clusters;
    private final SdkMetrics metrics;
    private final Consumer<AutoCloseable> onClose;
    private final AtomicBoolean closed = new AtomicBoolean();

    public RoutingProducer(String producerGroup, Optional<TransactionChecker> transactionChecker, PlatformConfigRef config,
                           ClusterChooser chooser, ClusterProducers clusters, SdkMetrics metrics,
                           Consumer<AutoCloseable> onClose) {
        this.producerGroup = producerGroup;
        this.transactionChecker = transactionChecker;
        this.config = config;
        this.chooser = chooser;
        this.clusters = clusters;
        this.metrics = metrics;
        this.onClose = onClose;
    }

    @Override
    public SendResult send(Message message) throws MessagingException {
        Dispatch dispatch = dispatch(message);
        long start = System.nanoTime();
        try {
            BoundSendResult sent = clusters.get(dispatch.route.cluster()).send(dispatch.physical);
            metrics.sendCompleted(message.logicTopic(), dispatch.route.cluster(), true, System.nanoTime() - start);
            return dispatch.result(sent);
        } catch (MessagingException | RuntimeException e) {
            metrics.sendCompleted(message.logicTopic(), dispatch.route.cluster(), false, System.nanoTime() - start);
            throw Errors.withLogicTopic(e, message.logicTopic(), dispatch.route.cluster());
        }
    }

    @Override
    public CompletableFuture<SendResult> sendAsync(Message message) {
        Dispatch dispatch;
        try {
            dispatch = dispatch(message);
        } catch (MessagingException e) {
            return CompletableFuture.failedFuture(e);
        }
        String cluster = dispatch.route.cluster();
        long start = System.nanoTime();
        CompletableFuture<BoundSendResult> sending;
        try {
            sending = clusters.get(cluster).sendAsync(dispatch.physical);
        } catch (MessagingException | RuntimeException e) {
            sending = CompletableFuture.failedFuture(e);
        }
        CompletableFuture<SendResult> result = new CompletableFuture<>();
        sending.whenComplete((sent, failure) -> {
            metrics.sendCompleted(message.logicTopic(), cluster, failure == null, System.nanoTime() - start);
            if (failure == null) {
                result.complete(dispatch.result(sent));
            } else {
                result.completeExceptionally(Errors.withLogicTopic(failure, message.logicTopic(), cluster));
            }
        });
        return result;
    }

    @Override
    public SendResult sendInTransaction(Message message, LocalTransaction localTransaction) throws MessagingException {
        if (transactionChecker.isEmpty()) {
            throw new InvalidConfigurationException("producer group '" + producerGroup
                    + "' has no transaction checker; set ProducerOptions.transactionChecker to send in transactions");
        }
        Dispatch dispatch = dispatch(message);
        String cluster = dispatch.route.cluster();
        BoundLocalTransaction bound = prepared -> runLocal(localTransaction, dispatch.result(prepared));
        long start = System.nanoTime();
        try {
            BoundSendResult sent = clusters.get(cluster).sendInTransaction(dispatch.physical, bound);
            metrics.sendCompleted(message.logicTopic(), cluster, true, System.nanoTime() - start);
            return dispatch.result(sent);
        } catch (MessagingException | RuntimeException e) {
            metrics.sendCompleted(message.logicTopic(), cluster, false, System.nanoTime() - start);
            throw Errors.withLogicTopic(e, message.logicTopic(), cluster);
        }
    }

    private TransactionResolution runLocal(LocalTransaction localTransaction, SendResult prepared) {
        try {
            TransactionResolution resolution = localTransaction.execute(prepared);
            return resolution == null ? TransactionResolution.UNKNOWN : resolution;
        } catch (Exception e) {
            log.warn("local transaction failed for message {} [logicTopic={}, cluster={}]; the broker will check it back",
                    prepared.messageId(), prepared.logicTopic(), prepared.cluster(), e);
            return TransactionResolution.UNKNOWN;
        }
    }

    private Dispatch dispatch(Message message) throws MessagingException {
        if (closed.get()) {
            throw new SendFailedException("producer is closed", message.logicTopic(), null, null);
        }
        PlatformConfig snapshot = config.current();
        LogicTopicConfig topic;
        try {
            topic = SendValidator.check(snapshot, message);
        } catch (MessagingException e) {
            metrics.sendRejected(message.logicTopic(), e.getClass().getSimpleName());
            throw e;
        }
        TopicRoute route = chooser.choose(topic, message.shardingKey()).orElseThrow(() -> new SendFailedException(
                "no cluster of this logic topic can take sends now", message.logicTopic(), null, null));
        PhysicalMessage physical = new PhysicalMessage(route.physicalTopic(), message.body(), message.keys(), message.tag(),
                message.properties(), message.shardingKey());
        return new Dispatch(message.logicTopic(), route, physical);
    }

    /** Closes this producer's cluster connections; sends after this fail at once. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            clusters.close();
            onClose.accept(this);
        }
    }

    /** One send's decision: the logic topic, the route chosen and the message as that route needs it. */
    private record Dispatch(String logicTopic, TopicRoute route, PhysicalMessage physical) {
        SendResult result(BoundSendResult sent) {
            return new SendResult(sent.messageId(), logicTopic, route.cluster(), sent.topic(), sent.queueId(), sent.queueOffset());
        }
    }
}

package io.lanemq.rocketmq;

import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.api.MessagingException;
import io.lanemq.api.SendFailedException;
import io.lanemq.api.spi.BoundLocalTransaction;
import io.lanemq.api.spi.BoundProducer;
import io.lanemq.api.spi.BoundProducerSpec;
import io.lanemq.api.spi.BoundSendResult;
import io.lanemq.api.spi.PhysicalMessage;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.exception.RequestTimeoutException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.RequestCallback;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.client.producer.TransactionSendResult;
import org.apache.rocketmq.common.message.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A producer on one cluster: one RocketMQ client instance of its own.
 *
 * <p><b>Sharding keys.</b> A message with a sharding key goes through {@link ShardingKeySelector};
 * RocketMQ does not retry such a send within the cluster (another queue would break the order), so
 * the core's cross-cluster handling is the only retry. A transactional message cannot pick its
 * queue in RocketMQ's remoting client: its sharding key is carried (the consumer sees it) but does
 * not choose the queue.
 *
 * <p><b>Stored but not flushed or replicated.</b> A send answered with {@code FLUSH_DISK_TIMEOUT},
 * {@code FLUSH_SLAVE_TIMEOUT} or {@code SLAVE_NOT_AVAILABLE} is reported as a success: the master
 * has the message in its commit log and will deliver it; only its durability is below what the
 * broker is configured for. Failing it would make the core send it again to the other cluster,
 * doubling every message while a disk or slave is slow. It is logged at WARN (throttled). For a
 * transaction the same answer is a failure, because RocketMQ then rolls the prepared message back
 * without running the local transaction.
 *
 * <p>Futures of {@link #sendAsync} complete on RocketMQ's callback threads: dependent stages must
 * not block.
 */
final class RocketMqProducer implements BoundProducer {
    private static final Logger LOG = LoggerFactory.getLogger(RocketMqProducer.class);
    /** RocketMQ's default for pending check-backs; beyond it the broker simply asks again later. */
    private static final int CHECK_QUEUE_CAPACITY = 2000;

    private final DefaultMQProducer producer;
    private final ExecutorService checkExecutor;
    private final String cluster;
    private final String producerGroup;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final AtomicLong storedNotOk = new AtomicLong();

    private RocketMqProducer(DefaultMQProducer producer, ExecutorService checkExecutor, BoundProducerSpec spec) {
        this.producer = producer;
        this.checkExecutor = checkExecutor;
        this.cluster = spec.cluster().clusterName();
        this.producerGroup = spec.producerGroup();
    }

    static RocketMqProducer start(BoundProducerSpec spec) throws MessagingException {
        EndpointSettings settings = EndpointSettings.of(spec.cluster());
        String cluster = spec.cluster().clusterName();
        TransactionBridge bridge = spec.transactionCheckHandler()
                .map(handler -> new TransactionBridge(handler, cluster, spec.producerGroup()))
                .orElse(null);
        ExecutorService checkExecutor = bridge == null ? null : new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
                new LinkedBlockingQueue<>(CHECK_QUEUE_CAPACITY),
                new NamedThreadFactory("lanemq-rocketmq-txcheck-" + cluster + "-" + spec.producerGroup()));
        try {
            DefaultMQProducer producer = RocketMqClients.newProducer(spec, settings, bridge, checkExecutor);
            try {
                producer.start();
            } catch (MQClientException | RuntimeException e) {
                producer.shutdown();
                throw RocketMqErrors.startFailed(e, "producer group '" + spec.producerGroup() + "'", cluster);
            }
            return new RocketMqProducer(producer, checkExecutor, spec);
        } catch (MessagingException | RuntimeException e) {
            if (checkExecutor != null) {
                checkExecutor.shutdownNow();
            }
            throw e;
        }
    }

    @Override
    public BoundSendResult send(PhysicalMessage message) throws MessagingException {
        requireOpen(message);
        Message target = MessageMapping.toRocketMq(message);
        try {
            SendResult result = message.shardingKey().isPresent()
                    ? producer.send(target, ShardingKeySelector.INSTANCE, message.shardingKey().get())
                    : producer.send(target);
            return accepted(result, message.topic());
        } catch (Exception e) {
            throw RocketMqErrors.sendFailed(e, cluster, message.topic());
        }
    }

    @Override
    public CompletableFuture<BoundSendResult> sendAsync(PhysicalMessage message) {
        CompletableFuture<BoundSendResult> future = new CompletableFuture<>();
        String topic = message.topic();
        SendCallback callback = new SendCallback() {
            @Override
            public void onSuccess(SendResult result) {
                future.complete(accepted(result, topic));
            }

            @Override
            public void onException(Throwable error) {
                future.completeExceptionally(RocketMqErrors.sendFailed(error, cluster, topic));
            }
        };
        try {
            requireOpen(message);
            Message target = MessageMapping.toRocketMq(message);
            if (message.shardingKey().isPresent()) {
                producer.send(target, ShardingKeySelector.INSTANCE, message.shardingKey().get(), callback);
            } else {
                producer.send(target, callback);
            }
        } catch (Exception e) {
            future.completeExceptionally(RocketMqErrors.sendFailed(e, cluster, topic));
        }
        return future;
    }

    /**
     * Sends {@code message} prepared, runs {@code transaction} on the calling thread with a result
     * whose message id is final but whose broker, queue and offset are not known yet (null, -1,
     * -1: RocketMQ hands the listener the message, not the send result), and ends the transaction
     * by its answer. The returned result is complete. Failing to tell the broker the answer is not
     * an error here: RocketMQ logs it and the broker checks the transaction back.
     */
    @Override
    public BoundSendResult sendInTransaction(PhysicalMessage message, BoundLocalTransaction transaction)
            throws MessagingException {
        if (!(producer instanceof TransactionMQProducer transactional)) {
            throw new InvalidConfigurationException("producer group '" + producerGroup + "' on cluster '" + cluster
                    + "' has no transaction checker, so it cannot send transactions (topic " + message.topic() + ")");
        }
        requireOpen(message);
        Message target = MessageMapping.toRocketMq(message);
        TransactionSendResult result;
        try {
            result = transactional.sendMessageInTransaction(target, transaction);
        } catch (Exception e) {
            throw RocketMqErrors.sendFailed(e, cluster, message.topic());
        }
        if (result.getSendStatus() != SendStatus.SEND_OK) {
            throw new SendFailedException("prepared message for topic " + message.topic() + " was answered "
                    + result.getSendStatus() + "; RocketMQ rolled it back without running the local transaction",
                    null, cluster, null);
        }
        return MessageMapping.toBoundSendResult(result, message.topic());
    }

    /**
     * RocketMQ's request-reply: the broker stores the request like any message, and the consuming
     * side's reply travels back through the broker to this client instance. A message with a
     * sharding key goes to the key's queue, as {@link #send} does.
     *
     * <p>Uses the callback form and waits here: the blocking {@code request(...)} of rocketmq-client
     * 5.3.1 to 5.3.3 counts its latch down when the request is <em>sent</em>, so it fails with a
     * timeout within milliseconds, before any reply can arrive (apache/rocketmq#9319).
     */
    @Override
    public byte[] request(PhysicalMessage message, Duration timeout) throws MessagingException {
        requireOpen(message);
        Message target = MessageMapping.toRocketMq(message);
        long millis = Math.max(1, timeout.toMillis());
        CompletableFuture<Message> replied = new CompletableFuture<>();
        RequestCallback callback = new RequestCallback() {
            @Override
            public void onSuccess(Message reply) {
                replied.complete(reply);
            }

            @Override
            public void onException(Throwable e) {
                replied.completeExceptionally(e);
            }
        };
        Message reply;
        try {
            if (message.shardingKey().isPresent()) {
                producer.request(target, ShardingKeySelector.INSTANCE, message.shardingKey().get(), callback, millis);
            } else {
                producer.request(target, callback, millis);
            }
            reply = replied.get(millis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new SendFailedException("no reply to the request on topic " + message.topic() + " within " + millis
                    + " ms", null, cluster, e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RequestTimeoutException) {
                throw new SendFailedException("no reply to the request on topic " + message.topic() + " within "
                        + millis + " ms", null, cluster, e.getCause());
            }
            throw RocketMqErrors.sendFailed(e.getCause(), cluster, message.topic());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw RocketMqErrors.sendFailed(e, cluster, message.topic());
        } catch (Exception e) {
            throw RocketMqErrors.sendFailed(e, cluster, message.topic());
        }
        if (reply == null || reply.getBody() == null) {
            throw new SendFailedException("the reply to the request on topic " + message.topic() + " had no body",
                    null, cluster, null);
        }
        return reply.getBody();
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            producer.shutdown();
            if (checkExecutor != null) {
                // TransactionMQProducer.shutdown() already shuts it down; repeated here in case a future client does not.
                checkExecutor.shutdown();
            }
        }
    }

    private void requireOpen(PhysicalMessage message) throws SendFailedException {
        if (closed.get()) {
            throw new SendFailedException("producer group '" + producerGroup + "' is closed (topic " + message.topic() + ")",
                    null, cluster, null);
        }
    }

    private BoundSendResult accepted(SendResult result, String topic) {
        if (result.getSendStatus() != SendStatus.SEND_OK) {
            long count = storedNotOk.incrementAndGet();
            if (Long.bitCount(count) == 1) {
                // Powers of two only: a slow disk answers every send this way, and one line per send would flood the log.
                LOG.warn("message {} of topic {} is stored but answered {}: not yet flushed or replicated as the broker is "
                                + "configured to ({} such answers so far) [cluster={}, producerGroup={}]",
                        result.getMsgId(), topic, result.getSendStatus(), count, cluster, producerGroup);
            }
        }
        return MessageMapping.toBoundSendResult(result, topic);
    }
}

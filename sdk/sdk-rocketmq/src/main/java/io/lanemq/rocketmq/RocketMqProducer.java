package io.lanemq.rocketmq;

import io.lanemq.support.NamedThreads;
import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.api.MessagingException;
import io.lanemq.api.SendFailedException;
import io.lanemq.api.spi.BoundLocalTransaction;
import io.lanemq.api.spi.BoundProducer;
import io.lanemq.api.spi.BoundProducerSpec;
import io.lanemq.api.spi.BoundSendResult;
import io.lanemq.api.spi.PhysicalMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.rocketmq.client.Validators;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.exception.RequestTimeoutException;
import org.apache.rocketmq.client.impl.producer.TopicPublishInfo;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.RequestCallback;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.client.producer.TransactionSendResult;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageBatch;
import org.apache.rocketmq.common.message.MessageClientIDSetter;
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
    /** Topics this producer has made itself known for to every broker, see {@link #registerForReplies}. */
    private final Set<String> heartbeatTopics = ConcurrentHashMap.newKeySet();

    private RocketMqProducer(DefaultMQProducer producer, ExecutorService checkExecutor, BoundProducerSpec spec) {
        this.producer = producer;
        this.checkExecutor = checkExecutor;
        this.cluster = spec.cluster().clusterName();
        this.producerGroup = spec.producerGroup();
    }

    static RocketMqProducer start(BoundProducerSpec spec) throws MessagingException {
        EndpointTuning settings = EndpointTuning.of(spec.cluster());
        String cluster = spec.cluster().clusterName();
        TransactionBridge bridge = spec.transactionCheckHandler()
                .map(handler -> new TransactionBridge(handler, cluster, spec.producerGroup()))
                .orElse(null);
        ExecutorService checkExecutor = bridge == null ? null : new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
                new LinkedBlockingQueue<>(CHECK_QUEUE_CAPACITY),
                NamedThreads.numbered("lanemq-rocketmq-txcheck-" + cluster + "-" + spec.producerGroup()));
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
     * One RocketMQ batch request ({@code MessageBatch}: stored message by message, in order, in one queue). Messages
     * with a sharding key go to the key's queue, found the way {@link ShardingKeySelector} finds it for a single
     * send: from the client's route of the topic. While the client has no route for the topic yet (its first send),
     * the messages go one after another instead, each to the key's queue, which also fetches the route.
     */
    @Override
    public CompletableFuture<List<BoundSendResult>> sendBatchAsync(List<PhysicalMessage> messages) {
        String topic = messages.get(0).topic();
        Optional<String> shardingKey = messages.get(0).shardingKey();
        CompletableFuture<List<BoundSendResult>> future = new CompletableFuture<>();
        try {
            requireOpen(messages.get(0));
            List<Message> inner = new ArrayList<>(messages.size());
            for (PhysicalMessage message : messages) {
                inner.add(MessageMapping.toRocketMq(message));
            }
            MessageBatch batch = batchOf(inner);
            SendCallback callback = new SendCallback() {
                @Override
                public void onSuccess(SendResult result) {
                    future.complete(batchAccepted(result, inner, topic));
                }

                @Override
                public void onException(Throwable error) {
                    future.completeExceptionally(RocketMqErrors.sendFailed(error, cluster, topic));
                }
            };
            if (shardingKey.isEmpty()) {
                producer.send((Message) batch, callback);
                return future;
            }
            TopicPublishInfo route = producer.getDefaultMQProducerImpl().getTopicPublishInfoTable().get(topic);
            if (route == null || !route.ok()) {
                return oneByOne(messages, 0, new ArrayList<>(messages.size()));
            }
            producer.send((Message) batch, ShardingKeySelector.INSTANCE.select(route.getMessageQueueList(), null,
                    shardingKey.get()), callback);
        } catch (Exception e) {
            future.completeExceptionally(RocketMqErrors.sendFailed(e, cluster, topic));
        }
        return future;
    }

    /**
     * The batch request, built here rather than by {@code DefaultMQProducer.send(Collection)}: that one gives the
     * batch itself a unique id too, and the broker appends the batch's properties to every message it stores
     * (apache/rocketmq#2343), where the later {@code UNIQ_KEY} wins, so consumers would see every message of a
     * batch under one id, not the ids the producer returned. Without an id of its own the batch keeps each message's.
     */
    private MessageBatch batchOf(List<Message> inner) throws MQClientException {
        MessageBatch batch = MessageBatch.generateFromList(inner);
        for (Message message : inner) {
            Validators.checkMessage(message, producer);
            MessageClientIDSetter.setUniqID(message);
        }
        batch.setBody(batch.encode());
        return batch;
    }

    /** Sends {@code messages} from {@code index} on, each once the one before it is stored, so their order holds. */
    private CompletableFuture<List<BoundSendResult>> oneByOne(List<PhysicalMessage> messages, int index,
                                                              List<BoundSendResult> stored) {
        if (index == messages.size()) {
            return CompletableFuture.completedFuture(stored);
        }
        return sendAsync(messages.get(index)).thenCompose(result -> {
            stored.add(result);
            return oneByOne(messages, index + 1, stored);
        });
    }

    /** Each message's own result: RocketMQ set each one's id when it built the batch; offsets follow the first. */
    private List<BoundSendResult> batchAccepted(SendResult result, List<Message> batch, String topic) {
        BoundSendResult first = accepted(result, topic);
        List<BoundSendResult> results = new ArrayList<>(batch.size());
        for (int i = 0; i < batch.size(); i++) {
            results.add(new BoundSendResult(MessageClientIDSetter.getUniqID(batch.get(i)), topic, first.brokerName(),
                    first.queueId(), first.queueOffset() < 0 ? -1 : first.queueOffset() + i, first.storedAsConfigured()));
        }
        return results;
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
     * <p>Uses the callback form and waits here: since 5.3.1 the blocking {@code request} returns
     * as soon as the request is stored, before any reply (apache/rocketmq#9319).
     */
    @Override
    public byte[] request(PhysicalMessage message, Duration timeout) throws MessagingException {
        requireOpen(message);
        Message target = MessageMapping.toRocketMq(message);
        long millis = Math.max(1, timeout.toMillis());
        CompletableFuture<Message> reply = new CompletableFuture<>();
        RequestCallback callback = new RequestCallback() {
            @Override
            public void onSuccess(Message answer) {
                reply.complete(answer);
            }

            @Override
            public void onException(Throwable error) {
                reply.completeExceptionally(error);
            }
        };
        try {
            registerForReplies(message.topic());
            if (message.shardingKey().isPresent()) {
                producer.request(target, ShardingKeySelector.INSTANCE, message.shardingKey().get(), callback, millis);
            } else {
                producer.request(target, callback, millis);
            }
            return bodyOf(reply.get(millis, TimeUnit.MILLISECONDS), message.topic());
        } catch (TimeoutException e) {
            throw noReply(message.topic(), millis, e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RequestTimeoutException timedOut) {
                throw noReply(message.topic(), millis, timedOut);
            }
            throw RocketMqErrors.sendFailed(e.getCause(), cluster, message.topic());
        } catch (Exception e) {
            throw RocketMqErrors.sendFailed(e, cluster, message.topic());
        }
    }

    private SendFailedException noReply(String topic, long millis, Exception cause) {
        return new SendFailedException("no reply to the request on topic " + topic + " within " + millis + " ms",
                null, cluster, cause);
    }

    private byte[] bodyOf(Message reply, String topic) throws SendFailedException {
        if (reply == null || reply.getBody() == null) {
            throw new SendFailedException("the reply to the request on topic " + topic + " had no body", null, cluster, null);
        }
        return reply.getBody();
    }

    /**
     * A broker pushes a reply only to a client it holds a heartbeat channel for. RocketMQ sends
     * one before a request only when the topic's route is new to the client, so a producer that
     * already sent to the topic (a delayed send, then its cancel) would wait for the periodic
     * heartbeat and miss the reply. One forced heartbeat per topic closes that gap; later ones
     * are kept alive by the periodic heartbeat.
     */
    private void registerForReplies(String topic) {
        if (heartbeatTopics.add(topic)) {
            producer.getDefaultMQProducerImpl().getMqClientFactory().sendHeartbeatToAllBrokerWithLock();
        }
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
        if (!SendStatuses.storedAsConfigured(result)) {
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

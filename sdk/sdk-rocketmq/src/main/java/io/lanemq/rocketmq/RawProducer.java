package io.lanemq.rocketmq;

import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.api.MessagingException;
import io.lanemq.api.spi.ClusterEndpoint;
import io.lanemq.api.spi.PhysicalMessage;
import java.util.HashMap;
import java.util.concurrent.CompletableFuture;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.utils.MessageUtil;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageAccessor;

/**
 * A producer on one cluster below the SDK's routing, for a service that writes back to the queues it reads (the
 * delay server: re-enqueue a record to its own queue, answer a request it read). Messages are built by the
 * binding's one mapping ({@link MessageMapping#toRocketMq}), so what is refused there is refused here.
 *
 * <p>Lifecycle: {@link #start} connects; {@link #close()} shuts the producer down. Sends are asynchronous and
 * thread-safe; a send's future completes on RocketMQ's callback thread.
 */
public final class RawProducer implements AutoCloseable {

    private final DefaultMQProducer producer;
    private final String cluster;

    private RawProducer(DefaultMQProducer producer, String cluster) {
        this.producer = producer;
        this.cluster = cluster;
    }

    /**
     * Connects a producer of {@code producerGroup} to the endpoint's cluster under {@code instanceName} (distinct per
     * client and cluster, see {@link RocketMqClients}) and starts it.
     */
    public static RawProducer start(String producerGroup, ClusterEndpoint endpoint, String instanceName)
            throws InvalidConfigurationException, MessagingException {
        DefaultMQProducer producer = RocketMqClients.withQuietAccumulator(new DefaultMQProducer(producerGroup,
                ClusterAccess.rpcHook(endpoint)));
        RawClientSupport.connect(producer, endpoint, instanceName);
        try {
            producer.start();
        } catch (Exception e) {
            throw RocketMqErrors.startFailed(e, "producer " + producerGroup, endpoint.clusterName());
        }
        return new RawProducer(producer, endpoint.clusterName());
    }

    /**
     * Sends {@code message} to {@code queue} (which must be of the message's topic). The future completes with true
     * when the broker stored it as configured (flushed, replicated), with false when it was stored but not yet so
     * ({@code FLUSH_DISK_TIMEOUT}, {@code FLUSH_SLAVE_TIMEOUT}, {@code SLAVE_NOT_AVAILABLE}: see {@link SendStatuses};
     * keep whatever the send was to replace and send again), and exceptionally when the send failed or the message
     * was refused.
     */
    public CompletableFuture<Boolean> sendToQueue(PhysicalMessage message, QueueRef queue) {
        CompletableFuture<Boolean> sent = new CompletableFuture<>();
        try {
            producer.send(MessageMapping.toRocketMq(message), queue.toMessageQueue(), completing(sent));
        } catch (Exception e) {
            sent.completeExceptionally(RocketMqErrors.sendFailed(e, cluster, message.topic()));
        }
        return sent;
    }

    /**
     * Answers {@code request}, a message sent with RocketMQ's request-reply (see
     * {@link FetchedMessage#replyToClient()}), with {@code body}; the future completes as {@link #sendToQueue}'s.
     */
    public CompletableFuture<Boolean> reply(FetchedMessage request, byte[] body) {
        CompletableFuture<Boolean> sent = new CompletableFuture<>();
        try {
            Message requested = new Message(request.queue().topic(), request.body());
            MessageAccessor.setProperties(requested, new HashMap<>(request.properties()));
            producer.send(MessageUtil.createReplyMessage(requested, body), completing(sent));
        } catch (Exception e) {
            sent.completeExceptionally(RocketMqErrors.sendFailed(e, cluster, "reply to " + request.queue().topic()));
        }
        return sent;
    }

    /** Package-private for the status mapping's test. */
    static SendCallback completing(CompletableFuture<Boolean> sent) {
        return new SendCallback() {
            @Override
            public void onSuccess(SendResult result) {
                sent.complete(SendStatuses.storedAsConfigured(result));
            }

            @Override
            public void onException(Throwable e) {
                sent.completeExceptionally(e);
            }
        };
    }

    @Override
    public void close() {
        producer.shutdown();
    }
}

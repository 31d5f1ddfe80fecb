package io.lanemq.proxy;

import io.lanemq.api.MessagingException;
import io.lanemq.api.spi.ClusterEndpoint;
import io.lanemq.rocketmq.GroupTopics;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends a group's messages to the group's own retry and dead-letter topics ({@link GroupTopics}, the binding's) on
 * the cluster each came from: the proxy's policy around them.
 *
 * <p>A dead-letter or parking send is retried every second until the broker stored it as configured
 * ({@link UntilStored}: a failure and a status such as {@code FLUSH_DISK_TIMEOUT} alike); the message's offset
 * stays uncommitted meanwhile, so a crash delivers it again instead of losing it. All sends run on one thread.
 */
final class GroupTopicsPublisher implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(GroupTopicsPublisher.class);

    private final GroupKey group;
    private final List<GroupSpec.Route> routes;
    private final ScheduledExecutorService executor;
    private final GroupTopics topics;
    private final UntilStored untilStored;
    /** What a parked message's due time counts from. */
    private final InstantSource wallClock;

    /** @param executor one thread: sends are serial, in the order they were asked for */
    GroupTopicsPublisher(GroupKey group, String brokerGroup, List<GroupSpec.Route> routes, ScheduledExecutorService executor,
                         InstantSource wallClock) {
        this.group = group;
        this.wallClock = wallClock;
        this.routes = List.copyOf(routes);
        Map<String, ClusterEndpoint> clusters = new HashMap<>();
        routes.forEach(route -> clusters.put(route.cluster().name(), route.cluster().endpoint()));
        this.topics = new GroupTopics(brokerGroup, "lanemq-proxy-" + brokerGroup, clusters);
        this.executor = executor;
        this.untilStored = new UntilStored(executor, 1_000);
    }

    String deadLetterTopic() {
        return topics.deadLetterTopic();
    }

    String retryTopic() {
        return topics.retryTopic();
    }

    /**
     * Creates both topics on every broker of {@code cluster} that hosts one of the group's physical topics, so its
     * fetcher can subscribe to the retry topic and dead letters stay next to their topic.
     */
    void createTopics(String cluster) throws MessagingException {
        for (GroupSpec.Route route : routes) {
            if (route.cluster().name().equals(cluster)) {
                topics.create(cluster, route.physicalTopic());
            }
        }
    }

    /** Sends in the background; {@code done} runs after the broker stored the message. */
    void deadLetter(HeldMessage message, Consumer<HeldMessage> done, Runnable failed) {
        executor.execute(() -> sendUntilStored(message, topics.deadLetterTopic(),
                () -> topics.deadLetter(cluster(message), message.source(), messageId(message)), done, failed));
    }

    /**
     * Stores the message in the retry topic as a timer message due in {@code delayMillis}, with its attempt count,
     * in the background, retrying every second until the broker stored it; {@code done} runs then.
     */
    void park(HeldMessage message, long delayMillis, Consumer<HeldMessage> done, Runnable failed) {
        long dueMillis = wallClock.millis() + delayMillis;
        executor.execute(() -> sendUntilStored(message, topics.retryTopic(), () -> topics.retry(cluster(message),
                message.source(), messageId(message), message.attempts(), dueMillis), done, failed));
    }

    /**
     * Moves an unacked message to the retry topic (used on shutdown, so its offset can be committed
     * without losing it). Waits for the send; false when it failed or took longer than the timeout.
     */
    boolean requeue(HeldMessage message, long timeoutMillis) throws InterruptedException {
        try {
            return executor.submit(() -> topics.retry(cluster(message), message.source(), messageId(message),
                    message.attempts(), 0)).get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            log.warn("{}: moving {} to {} failed; it stays uncommitted and comes again from its queue", group, message,
                    topics.retryTopic(), e);
            return false;
        }
    }

    /** The message's offset stays uncommitted until a send stored its copy as configured, so a crash meanwhile delivers it again. */
    private void sendUntilStored(HeldMessage message, String topic, UntilStored.Send send, Consumer<HeldMessage> done,
            Runnable failed) {
        untilStored.send(group + ": sending " + message + " to " + topic + " on " + cluster(message), send,
                () -> done.accept(message), failed);
    }

    private static String cluster(HeldMessage message) {
        return message.template().getCluster();
    }

    private static String messageId(HeldMessage message) {
        return message.template().getMessageId();
    }

    /** Stops the producers; run it on the publisher's thread so no send is cut in half. */
    @Override
    public void close() {
        topics.close();
    }
}

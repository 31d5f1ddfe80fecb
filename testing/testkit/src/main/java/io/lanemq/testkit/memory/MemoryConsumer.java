package io.lanemq.testkit.memory;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.MessagingException;
import io.lanemq.api.spi.BoundConsumer;
import io.lanemq.api.spi.BoundConsumerSpec;
import io.lanemq.api.spi.BoundListener;
import io.lanemq.api.spi.BoundMessage;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A push consumer on one {@link MemoryCluster}: one named thread delivers its topics' messages (its own topic, the
 * ones it drains, its shadow topics) one at a time. {@link #close()} lets the message in hand finish and settle.
 * {@link #pause()} stops taking messages after the one in hand; the cluster then offers them to the group's other members.
 */
final class MemoryConsumer implements BoundConsumer {
    private static final long IDLE_WAIT_MILLIS = 100;

    private final MemoryCluster cluster;
    private final BoundConsumerSpec spec;
    private final BoundListener listener;
    private final Set<String> topics;
    private final Set<String> tags;
    private volatile boolean open = true;
    /** Guarded by {@code this}. */
    private boolean paused;
    private Thread thread;

    private MemoryConsumer(MemoryCluster cluster, BoundConsumerSpec spec, BoundListener listener) {
        this.cluster = cluster;
        this.spec = spec;
        this.listener = listener;
        Set<String> all = new LinkedHashSet<>();
        all.add(spec.topic());
        all.addAll(spec.drainTopics());
        all.addAll(spec.shadowTopics());
        this.topics = Set.copyOf(all);
        this.tags = spec.tagFilter().trim().equals("*") ? null
                : Arrays.stream(spec.tagFilter().split("\\|\\|")).map(String::trim).collect(Collectors.toUnmodifiableSet());
    }

    static MemoryConsumer start(MemoryCluster cluster, BoundConsumerSpec spec, BoundListener listener) throws MessagingException {
        cluster.checkStart("consumer group '" + spec.consumerGroup() + "' of topic " + spec.topic());
        MemoryConsumer consumer = new MemoryConsumer(cluster, spec, listener);
        long member = cluster.join(consumer);
        consumer.thread = new Thread(consumer::run, "lanemq-memory-consumer-" + cluster.name() + "-" + spec.consumerGroup()
                + "-" + member);
        consumer.thread.setDaemon(true);
        consumer.thread.start();
        return consumer;
    }

    BoundConsumerSpec spec() {
        return spec;
    }

    Set<String> topics() {
        return topics;
    }

    boolean isOpen() {
        return open;
    }

    boolean accepts(BoundMessage message) {
        return tags == null || message.tag().map(tags::contains).orElse(false);
    }

    private void run() {
        while (open) {
            MemoryCluster.Delivery delivery;
            try {
                if (waitWhilePaused()) {
                    continue;
                }
                delivery = cluster.next(this, IDLE_WAIT_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
            if (delivery == null) {
                continue;
            }
            ConsumeResult result;
            try {
                result = listener.onMessage(delivery.message());
            } catch (RuntimeException | Error e) {
                result = ConsumeResult.RETRY_LATER;
            }
            cluster.settle(this, delivery, result);
        }
    }

    /** Waits a moment while paused; true when it did (the loop looks at {@link #open} again). */
    private synchronized boolean waitWhilePaused() throws InterruptedException {
        if (!paused) {
            return false;
        }
        wait(IDLE_WAIT_MILLIS);
        return true;
    }

    @Override
    public synchronized void pause() {
        paused = true;
    }

    @Override
    public synchronized void resume() {
        paused = false;
        notifyAll();
    }

    @Override
    public OptionalLong backlog(String topic) {
        return open ? cluster.backlogOf(spec.consumerGroup(), topic) : OptionalLong.empty();
    }

    @Override
    public Optional<List<String>> memberTags() {
        return open ? cluster.memberTags(spec.consumerGroup()) : Optional.empty();
    }

    @Override
    public void close() {
        if (!open) {
            return;
        }
        open = false;
        cluster.wake();
        if (Thread.currentThread() != thread) {
            try {
                thread.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        cluster.leave(this);
    }
}

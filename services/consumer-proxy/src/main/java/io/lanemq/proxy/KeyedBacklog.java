package io.lanemq.proxy;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Predicate;
import java.util.function.Function;

/**
 * A group's ordered messages (those with a sharding key) waiting to go out: a FIFO per order key
 * (cluster and sharding key), with at most one message of a key out at a time, in fetch order, to the
 * key's consumer while it stays connected. A consumer without credits holds its keys back rather than
 * lose them, since handing a key over while its consumer lives could reorder it. A key with nothing
 * waiting or out is forgotten once no consumer holds it.
 *
 * <p>Only messages with a non-null {@link HeldMessage#orderKey()} come here. Not thread-safe: used
 * under the owning {@link GroupDispatcher}'s lock.
 */
final class KeyedBacklog {
    /** One order key's messages, in order; {@code pending} is its head while out or waiting to be retried. */
    private static final class KeyQueue {
        final ArrayDeque<HeldMessage> waiting = new ArrayDeque<>();
        HeldMessage pending;
        ConsumerSession consumer;

        boolean idle() {
            return waiting.isEmpty() && pending == null;
        }
    }

    private final Map<String, KeyQueue> queues = new HashMap<>();
    /** Keys whose head may go out (something waits, nothing pending), in the order they became so. */
    private final LinkedHashSet<KeyQueue> ready = new LinkedHashSet<>();

    /** A newly fetched message, behind those of its key. */
    void offer(HeldMessage message) {
        KeyQueue queue = queues.computeIfAbsent(message.orderKey(), key -> new KeyQueue());
        queue.waiting.addLast(message);
        if (queue.pending == null) {
            ready.add(queue);
        }
    }

    /** The key's pending message failed and goes out again before the rest of its key. */
    void requeue(HeldMessage message) {
        KeyQueue queue = queues.computeIfAbsent(message.orderKey(), key -> new KeyQueue());
        queue.pending = null;
        queue.waiting.addFirst(message);
        ready.add(queue);
    }

    /** The key's pending message is finished (acked, dead-lettered or parked): the key may move on. */
    void release(HeldMessage message) {
        KeyQueue queue = queues.get(message.orderKey());
        if (queue == null) {
            return;
        }
        queue.pending = null;
        if (!queue.waiting.isEmpty()) {
            ready.add(queue);
        } else if (queue.consumer == null) {
            queues.remove(message.orderKey());
        }
    }

    /** While draining, the key's pending message is dropped and will not come back here. */
    void forgetPending(HeldMessage message) {
        KeyQueue queue = queues.get(message.orderKey());
        if (queue != null) {
            queue.pending = null;
        }
    }

    /**
     * The consumer is gone: its keys go to whoever has the next turn. Idle keys are forgotten whoever holds
     * them: with nothing of theirs out, binding them afresh cannot reorder them.
     */
    void unbind(ConsumerSession session) {
        queues.values().removeIf(queue -> {
            if (queue.consumer == session) {
                queue.consumer = null;
            }
            return queue.idle();
        });
    }

    /**
     * Drops the waiting messages {@code which} selects, and the pending ones among {@code droppedRetries}
     * (the dispatcher dropped them from its retry schedule).
     *
     * @return how many waiting messages were dropped
     */
    int drop(Predicate<HeldMessage> which, Set<HeldMessage> droppedRetries) {
        int dropped = 0;
        for (Iterator<KeyQueue> it = queues.values().iterator(); it.hasNext(); ) {
            KeyQueue queue = it.next();
            int before = queue.waiting.size();
            queue.waiting.removeIf(which);
            dropped += before - queue.waiting.size();
            if (queue.pending != null && droppedRetries.contains(queue.pending)) {
                queue.pending = null;
            }
            if (queue.waiting.isEmpty()) {
                ready.remove(queue);
            } else if (queue.pending == null) {
                ready.add(queue);
            }
            if (queue.idle() && queue.consumer == null) {
                it.remove();
            }
        }
        return dropped;
    }

    /**
     * Sends the head of each ready key to the key's consumer if it has a credit, or binds an unbound key to
     * a consumer of the head's lane from {@code newConsumer} (null: none of that lane has a credit, and the
     * lane's remaining unbound keys wait too). A key bound to a consumer of another lane than the one
     * {@code lanes} now gives its head (a more specific lane connected, or the bound one's lane is no longer
     * the choice) is bound afresh: nothing of the key is out while its head waits, so this cannot reorder it.
     */
    void deliverHeads(LaneChoice lanes, Function<String, ConsumerSession> newConsumer,
                      BiConsumer<HeldMessage, ConsumerSession> deliver) {
        Set<String> spent = null; // lanes none of whose consumers has a credit; made only when one is found (every pump runs this)
        for (Iterator<KeyQueue> it = ready.iterator(); it.hasNext() && (spent == null || spent.size() < lanes.lanes()); ) {
            KeyQueue queue = it.next();
            String lane = lanes.target(queue.waiting.peekFirst().lane());
            if (lane == null) {
                continue; // no consumer on the head's lane path: it waits
            }
            if (queue.consumer != null && !queue.consumer.lane().equals(lane)) {
                queue.consumer = null;
            }
            ConsumerSession target;
            if (queue.consumer != null) {
                target = queue.consumer.credits > 0 ? queue.consumer : null;
            } else {
                target = spent != null && spent.contains(lane) ? null : newConsumer.apply(lane);
                if (target == null) {
                    spent = spent == null ? new HashSet<>() : spent;
                    spent.add(lane);
                }
            }
            if (target == null) {
                continue; // keys bound to a consumer without credits are checked next time
            }
            it.remove();
            queue.pending = queue.waiting.pollFirst();
            queue.consumer = target;
            deliver.accept(queue.pending, target);
        }
    }

    /** How many keys are remembered; finished keys of departed consumers must not accumulate. */
    int keys() {
        return queues.size();
    }
}

package io.lanemq.proxy;

import io.lanemq.proxy.protocol.Delivery;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands one group's fetched messages to its connected consumers and follows each delivery to its
 * end: ack, nack (redelivery after a delay), ack timeout or disconnect (redelivery at once), or the
 * dead-letter topic after the last allowed attempt.
 *
 * <p>Which lane's consumers take a message is {@link LaneChoice}'s rule (the most specific lane on the
 * message's path with a connected consumer); which of them gets a turn is {@link FairTurns}' rule
 * (least-served first, in runs). Ordered
 * messages (those with a sharding key) wait in the {@link KeyedBacklog}, one out at a time per key.
 * When a failed message goes out again, if at all, is the {@link RedeliverySchedule}'s to say.
 *
 * <p>Time comes from an injected nanosecond clock and advances only through {@link #tick()}, so
 * tests drive timeouts and retry delays without sleeping.
 *
 * <p>Every decision is taken under the one lock; the pushes it decides are made after the lock is
 * released, by the thread that took the decision. Building a frame and handing it to a TLS stream
 * costs more than the decision itself, and under the lock every ack and credit of every consumer of
 * the group would queue behind it. Pushes to one stream from two threads may therefore interleave;
 * nothing depends on their order (an ordered key has one message out at a time, and a stream's first
 * delivery follows its first credit, which follows its Subscribed frame).
 */
final class GroupDispatcher {
    private static final Logger log = LoggerFactory.getLogger(GroupDispatcher.class);

    private record Outstanding(long deliveryId, HeldMessage message, ConsumerSession session, long deadlineNanos) {
    }

    /** A delivery decided under the lock, to be pushed once it is released. */
    private record Push(ConsumerSession session, HeldMessage message, long deliveryId, int attempt) {
    }

    /** The result of a nack. */
    enum Settled { DONE, UNKNOWN_DELIVERY }

    private final String name;
    private final DispatchPolicy settings;
    private final LongSupplier nanoClock;
    private final LongSupplier deliveryIds;
    private final DispatchListener listener;

    private final FairTurns turns;
    private final LaneChoice lanes = new LaneChoice();
    private final ArrayDeque<HeldMessage> ready = new ArrayDeque<>();
    private final KeyedBacklog keyed = new KeyedBacklog();
    /** In delivery order, which is deadline order since the ack timeout is one value. */
    private final LinkedHashMap<Long, Outstanding> outstanding = new LinkedHashMap<>();
    private final RedeliverySchedule redelivery;
    private int held;
    private boolean draining;
    /** Decided by {@link #deliver}, pushed by {@link #underLockThenPush} once the lock is released. */
    private List<Push> undelivered = new ArrayList<>();
    /** Threads waiting in {@code await*}: only then does a release need to wake anyone. */
    private int waiters;

    /**
     * @param name        names the group in logs ({@code group@logicTopic})
     * @param deliveryIds unique delivery ids (shared by every dispatcher of the proxy)
     */
    GroupDispatcher(String name, DispatchPolicy settings, LongSupplier nanoClock, LongSupplier deliveryIds,
                    DispatchListener listener) {
        this.name = name;
        this.settings = settings;
        this.nanoClock = nanoClock;
        this.deliveryIds = deliveryIds;
        this.listener = listener;
        this.turns = new FairTurns(settings.run());
        // Not listener::parked, which fails at once on a null listener: a dispatcher that never fails a delivery
        // needs no listener, and may be built without one.
        this.redelivery = new RedeliverySchedule(settings, nanoClock,
                (message, delayNanos) -> listener.parked(message, delayNanos));
    }

    DispatchPolicy settings() {
        return settings;
    }

    /** A consumer of the base lane. */
    ConsumerSession connect(String consumerId, long credits, ConsumerSession.DeliverySink sink) {
        return connect(consumerId, LaneChoice.BASE, credits, sink);
    }

    /** @param lane the consumer's lane path, {@link LaneChoice#BASE} for the base */
    ConsumerSession connect(String consumerId, String lane, long credits, ConsumerSession.DeliverySink sink) {
        return underLockThenPush(() -> {
            ConsumerSession session = new ConsumerSession(consumerId, lane, Math.min(credits, ConsumerSession.MAX_CREDITS), sink);
            turns.join(session);
            lanes.join(lane);
            return session;
        });
    }

    /** The consumer is gone: everything it holds is delivered again to others. */
    void disconnect(ConsumerSession session) {
        underLockThenPush(() -> disconnectLocked(session));
    }

    private void disconnectLocked(ConsumerSession session) {
        if (!session.connected) {
            return;
        }
        session.connected = false;
        turns.leave(session);
        // Before its deliveries fail: those of its lane then fall back if it was the lane's last consumer.
        lanes.leave(session.lane());
        for (Long id : session.outstanding) {
            Outstanding out = outstanding.remove(id);
            if (out != null) {
                fail(out.message, DispatchListener.FailedBy.DISCONNECT, 0);
            }
        }
        session.outstanding.clear();
        wakeWaiters();
        keyed.unbind(session);
        listener.left(session);
    }

    void grant(ConsumerSession session, long credits) {
        underLockThenPush(() -> addCredits(session, credits));
    }

    /** Takes back the session's unused credits: nothing more is pushed to it until a grant; what it holds stays its own. */
    void withdraw(ConsumerSession session) {
        underLockThenPush(() -> {
            session.credits = 0;
        });
    }

    private void addCredits(ConsumerSession session, long credits) {
        session.credits = Math.min(ConsumerSession.MAX_CREDITS, session.credits + credits);
    }

    /**
     * Acks the deliveries and then adds {@code credits} (0: none), in one step, so a batch of acks and
     * the credits it returns cost one pass.
     *
     * @return the ids that were not outstanding on this session (unknown, already settled, timed out)
     */
    List<Long> ack(ConsumerSession session, List<Long> deliveryIds, long credits) {
        return underLockThenPush(() -> {
            List<Long> unknown = List.of();
            for (long deliveryId : deliveryIds) {
                Outstanding out = take(session, deliveryId);
                if (out == null) {
                    unknown = unknown.isEmpty() ? new ArrayList<>() : unknown;
                    unknown.add(deliveryId);
                    continue;
                }
                out.message.finish();
                release(out.message);
                listener.acked(out.message);
            }
            if (credits > 0) {
                addCredits(session, credits);
            }
            return unknown;
        });
    }

    /** @param delayMillis empty: the backoff for the message's attempt number */
    Settled nack(ConsumerSession session, long deliveryId, OptionalLong delayMillis) {
        return underLockThenPush(() -> {
            Outstanding out = take(session, deliveryId);
            if (out == null) {
                return Settled.UNKNOWN_DELIVERY;
            }
            fail(out.message, DispatchListener.FailedBy.NACK, redelivery.nackDelayNanos(out.message, delayMillis));
            return Settled.DONE;
        });
    }

    /** The consumer will never process the delivery's message: to the dead-letter topic now, whatever attempts are left. */
    Settled deadLetter(ConsumerSession session, long deliveryId) {
        return underLockThenPush(() -> {
            Outstanding out = take(session, deliveryId);
            if (out == null) {
                return Settled.UNKNOWN_DELIVERY;
            }
            release(out.message);
            listener.deadLetter(out.message, DispatchListener.FailedBy.REJECTED);
            return Settled.DONE;
        });
    }

    /** Newly fetched messages, in queue order. */
    void offer(List<HeldMessage> messages) {
        underLockThenPush(() -> offerLocked(messages));
    }

    private void offerLocked(List<HeldMessage> messages) {
        for (HeldMessage message : messages) {
            held++;
            if (message.orderKey() == null) {
                ready.addLast(message);
            } else {
                keyed.offer(message);
            }
        }
    }

    /** Expires overdue deliveries and releases due retries; called periodically. */
    void tick() {
        underLockThenPush(this::tickLocked);
    }

    private void tickLocked() {
        long now = nanoClock.getAsLong();
        Iterator<Outstanding> overdue = outstanding.values().iterator();
        List<Outstanding> expired = new ArrayList<>();
        while (overdue.hasNext()) {
            Outstanding out = overdue.next();
            if (out.deadlineNanos - now > 0) {
                break;
            }
            overdue.remove();
            out.session.outstanding.remove(out.deliveryId);
            expired.add(out);
        }
        if (!expired.isEmpty()) {
            wakeWaiters();
        }
        for (Outstanding out : expired) {
            log.debug("{}: delivery {} of {} to {} timed out", name, out.deliveryId, out.message, out.session);
            fail(out.message, DispatchListener.FailedBy.TIMEOUT, 0);
        }
        for (HeldMessage due = redelivery.pollDue(now); due != null; due = redelivery.pollDue(now)) {
            requeue(due);
        }
    }

    /** Messages fetched and not finished: waiting, out with a consumer, or waiting for a retry. */
    synchronized int held() {
        return held;
    }

    synchronized int outstanding() {
        return outstanding.size();
    }

    synchronized int consumers() {
        return turns.size();
    }

    /** Waits until fewer than {@code limit} messages are held, at most {@code timeoutMillis}. */
    synchronized boolean awaitHeldBelow(int limit, long timeoutMillis) throws InterruptedException {
        return await(() -> held < limit, timeoutMillis);
    }

    /** Waits until no delivery is out with a consumer, at most {@code timeoutMillis}; true when none is. */
    synchronized boolean awaitNoneOutstanding(long timeoutMillis) throws InterruptedException {
        return await(outstanding::isEmpty, timeoutMillis);
    }

    private boolean await(BooleanSupplier condition, long timeoutMillis) throws InterruptedException {
        // On System.nanoTime, not the injected clock: this deadline bounds a real wait on the monitor, which a test's
        // clock standing still would never end.
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (!condition.getAsBoolean()) {
            long remaining = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (remaining <= 0) {
                return false;
            }
            waiters++;
            try {
                wait(remaining);
            } finally {
                waiters--;
            }
        }
        return true;
    }

    /** Something a waiter may wait for changed; with nobody waiting (the usual case) this costs nothing. */
    private void wakeWaiters() {
        if (waiters > 0) {
            notifyAll();
        }
    }

    /**
     * Forgets every delivery still out with a consumer (after the drain timeout on shutdown) and returns
     * their messages, unfinished: the caller moves them elsewhere or leaves their offsets uncommitted.
     */
    synchronized List<HeldMessage> abandonOutstanding() {
        List<HeldMessage> abandoned = new ArrayList<>();
        outstanding.values().forEach(out -> abandoned.add(out.message));
        outstanding.clear();
        turns.sessions().forEach(session -> session.outstanding.clear());
        held -= abandoned.size();
        wakeWaiters();
        return abandoned;
    }

    /**
     * Stops delivering: messages not out with a consumer are dropped (their offsets stay
     * uncommitted, so the group's next owner delivers them), outstanding ones may still be acked.
     */
    void drain() {
        underLockThenPush(() -> {
            draining = true;
            dropWaiting(message -> true);
        });
    }

    /** A rebalance took a queue away: its messages not out with a consumer are dropped. */
    void dropQueue(QueueOffsetTracker tracker) {
        underLockThenPush(() -> dropWaiting(message -> message.tracker() == tracker));
    }

    private void dropWaiting(Predicate<HeldMessage> which) {
        int before = held;
        ready.removeIf(message -> which.test(message) && dropped());
        Set<HeldMessage> droppedRetries = redelivery.drop(which);
        held -= droppedRetries.size();
        held -= keyed.drop(which, droppedRetries);
        if (held != before) {
            log.info("{}: dropped {} messages not out with a consumer", name, before - held);
            wakeWaiters();
        }
    }

    private boolean dropped() {
        held--;
        return true;
    }

    private Outstanding take(ConsumerSession session, long deliveryId) {
        Outstanding out = outstanding.get(deliveryId);
        if (out == null || out.session != session) {
            return null;
        }
        outstanding.remove(deliveryId);
        session.outstanding.remove(deliveryId);
        wakeWaiters();
        return out;
    }

    /** A delivery ended without an ack: retry after {@code delayNanos}, or dead-letter after the last attempt. */
    private void fail(HeldMessage message, DispatchListener.FailedBy reason, long delayNanos) {
        if (redelivery.lastAttempt(message)) {
            release(message);
            listener.deadLetter(message, reason);
            return;
        }
        listener.willRedeliver(message, reason);
        if (draining) {
            dropped();
            wakeWaiters();
            if (message.orderKey() != null) {
                keyed.forgetPending(message);
            }
            return;
        }
        switch (redelivery.schedule(message, delayNanos)) {
            case NOW -> requeue(message);
            case PARKED -> release(message);
            case LATER -> { } // tickLocked requeues it when it is due
        }
    }

    /** Back at the front of its line: redeliveries go before new messages, and first in their key. */
    private void requeue(HeldMessage message) {
        if (message.orderKey() == null) {
            ready.addFirst(message);
        } else {
            keyed.requeue(message);
        }
    }

    /** The message is finished here (acked, dead-lettered or parked in the retry topic): its key may move on. */
    private void release(HeldMessage message) {
        held--;
        wakeWaiters();
        if (message.orderKey() != null) {
            keyed.release(message);
        }
    }

    /**
     * Hands out what waits to consumers with credits. Each message goes to a consumer of the lane
     * {@link LaneChoice} gives it; a message whose lane has no credit left waits without holding back the
     * other lanes' messages behind it. Without lane members connected there is one lane, the base, and
     * this stops at the first message nobody can take, as before lanes.
     */
    private void pump() {
        if (draining || turns.isEmpty()) {
            return;
        }
        keyed.deliverHeads(lanes, turns::nextForNewKey, this::deliver);
        Set<String> spent = null;
        for (Iterator<HeldMessage> it = ready.iterator(); it.hasNext() && (spent == null || spent.size() < lanes.lanes()); ) {
            HeldMessage message = it.next();
            String lane = lanes.target(message.lane());
            if (lane == null || (spent != null && spent.contains(lane))) {
                continue;
            }
            ConsumerSession target = turns.next(lane);
            if (target == null) {
                spent = spent == null ? new HashSet<>() : spent;
                spent.add(lane);
                continue;
            }
            it.remove();
            deliver(message, target);
        }
    }

    private void deliver(HeldMessage message, ConsumerSession session) {
        long id = deliveryIds.getAsLong();
        int attempt = message.nextAttempt();
        session.credits--;
        turns.served(session);
        session.outstanding.add(id);
        outstanding.put(id, new Outstanding(id, message, session,
                nanoClock.getAsLong() + settings.ackTimeout().toNanos()));
        listener.delivered(session, message);
        undelivered.add(new Push(session, message, id, attempt));
    }

    /**
     * Runs {@code decision} and the pump under the lock, then pushes what they decided, outside it.
     */
    private <T> T underLockThenPush(Supplier<T> decision) {
        T result;
        List<Push> pushes;
        synchronized (this) {
            result = decision.get();
            pump();
            if (undelivered.isEmpty()) {
                return result;
            }
            pushes = undelivered;
            undelivered = new ArrayList<>();
        }
        pushTogether(pushes);
        return result;
    }

    private void underLockThenPush(Runnable decision) {
        underLockThenPush(() -> {
            decision.run();
            return null;
        });
    }

    /** Each consumer's deliveries of one decision go to its sink together, in the order they were decided. */
    private void pushTogether(List<Push> pushes) {
        Map<ConsumerSession, List<Delivery>> bySession = new LinkedHashMap<>();
        for (Push push : pushes) {
            bySession.computeIfAbsent(push.session, session -> new ArrayList<>()).add(push.message.template().toBuilder()
                    .setDeliveryId(push.deliveryId).setAttempt(push.attempt).build());
        }
        bySession.forEach((session, deliveries) -> {
            try {
                session.sink().push(deliveries);
            } catch (RuntimeException e) {
                // The stream is closing; its disconnect hands these deliveries to other consumers.
                log.debug("{}: push of {} deliveries to {} failed: {}", name, deliveries.size(), session, e.toString());
            }
        });
    }
}

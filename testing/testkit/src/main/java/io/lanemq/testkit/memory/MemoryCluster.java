package io.lanemq.testkit.memory;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.api.InvalidMessageException;
import io.lanemq.api.MessagingException;
import io.lanemq.api.SendFailedException;
import io.lanemq.api.TransactionResolution;
import io.lanemq.api.spi.BoundConsumerSpec;
import io.lanemq.api.spi.BoundMessage;
import io.lanemq.api.spi.BoundProducerSpec;
import io.lanemq.api.spi.BoundSendResult;
import io.lanemq.api.spi.PhysicalMessage;
import io.lanemq.api.spi.TransactionCheckHandler;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * One cluster of a {@link MemoryBinding}: topics of {@link #DEFAULT_QUEUES} queues each (created on first use),
 * consumer groups with committed offsets per queue, prepared transactions, request responders, and the faults
 * a test injects. Every method is thread-safe; the cluster's monitor guards its state and wakes its consumers.
 *
 * <p>Faults hold until {@link #recover()}: {@link #failSends()} answers every send, prepared transaction and
 * request with a {@link SendFailedException}; {@link #delaySends} answers them late; {@link #silence()} answers
 * nothing (an asynchronous send never completes, a synchronous one fails at its producer's send timeout, like a
 * broker client's own timeout), delivers nothing, and cannot tell backlog or members. A fault set while a send
 * waits applies to sends that start afterwards.
 */
public final class MemoryCluster {
    public static final int DEFAULT_QUEUES = 4;

    private final String name;
    private final String brokerName;
    private final AtomicLong ids = new AtomicLong();
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong roundRobin = new AtomicLong();
    private final AtomicLong memberSequence = new AtomicLong();
    private final List<SendRecord> sends = new CopyOnWriteArrayList<>();
    private final List<MemoryProducer> producers = new CopyOnWriteArrayList<>();
    private final List<MemoryConsumer> consumers = new CopyOnWriteArrayList<>();
    // Guarded by this.
    private final Map<String, List<List<BoundMessage>>> topics = new HashMap<>();
    private final Map<String, Group> groups = new HashMap<>();
    private final Map<String, Prepared> prepared = new LinkedHashMap<>();
    private final Map<String, Function<PhysicalMessage, byte[]>> responders = new HashMap<>();
    private int failuresLeft;
    private String refusal;
    private Duration sendDelay = Duration.ZERO;
    /** While set, sends are stored and answered only once it completes (see {@link #holdAnswers()}). */
    private java.util.concurrent.CompletableFuture<Void> answerGate;
    private boolean silent;
    private boolean failStarts;
    private Duration startStall = Duration.ZERO;
    private String startRefusal;
    private String unreachable;
    private final java.util.concurrent.atomic.AtomicInteger startAttempts = new java.util.concurrent.atomic.AtomicInteger();
    private boolean failTransactionEnds;

    MemoryCluster(String name) {
        this.name = name;
        this.brokerName = name + "-broker";
    }

    public String name() {
        return name;
    }

    // ---- faults ----

    /** Every send fails from now on, answered with a {@link SendFailedException} naming this cluster. */
    public synchronized MemoryCluster failSends() {
        failuresLeft = Integer.MAX_VALUE;
        return this;
    }

    /** The next {@code count} sends fail; later ones are stored again. */
    public synchronized MemoryCluster failSends(int count) {
        failuresLeft = count;
        return this;
    }

    /** Every send is refused as the product refuses a bad message: {@link InvalidMessageException} with {@code reason}. */
    public synchronized MemoryCluster refuseSends(String reason) {
        refusal = reason;
        return this;
    }

    /** Every send is stored and answered {@code delay} after it started. */
    public synchronized MemoryCluster delaySends(Duration delay) {
        sendDelay = delay;
        return this;
    }

    /**
     * Every send from now on waits for {@link #releaseAnswers()} before it is stored and answered: a broker that takes
     * exactly as long as the test needs, where a delay would race the test's own pace on a loaded host.
     */
    public synchronized MemoryCluster holdAnswers() {
        if (answerGate == null) {
            answerGate = new java.util.concurrent.CompletableFuture<>();
        }
        return this;
    }

    /** Stores and answers the sends {@link #holdAnswers()} held (on the binding's timer thread); later ones go as before. */
    public MemoryCluster releaseAnswers() {
        java.util.concurrent.CompletableFuture<Void> gate;
        synchronized (this) {
            gate = answerGate;
            answerGate = null;
        }
        if (gate != null) {
            gate.complete(null);
        }
        return this;
    }

    /** Answers nothing and delivers nothing, as a partitioned data centre. */
    public synchronized MemoryCluster silence() {
        silent = true;
        return this;
    }

    /** Producers and consumers cannot start here: creating one throws. */
    public synchronized MemoryCluster failStarts() {
        failStarts = true;
        return this;
    }

    /**
     * Producers and consumers cannot start here, and saying so takes {@code stall}: creating one blocks that long, then
     * throws, as a RocketMQ consumer whose name server drops its packets.
     */
    public synchronized MemoryCluster stallStarts(Duration stall) {
        failStarts = true;
        startStall = stall;
        return this;
    }

    /** Producers and consumers are refused here for a reason waiting will not cure (refused keys): creating one throws. */
    public synchronized MemoryCluster refuseStarts(String reason) {
        startRefusal = reason;
        return this;
    }

    /**
     * Its access points refuse connections, as {@link io.lanemq.api.spi.MessagingBinding#unreachable} reports for a
     * cluster whose name servers are down: {@code why} is what the binding says. Not implied by the other faults.
     */
    public synchronized MemoryCluster unreachable(String why) {
        unreachable = why;
        return this;
    }

    /** What the binding reports about reaching this cluster: see {@link #unreachable(String)}. */
    synchronized Optional<String> unreachableReason() {
        return Optional.ofNullable(unreachable);
    }

    /** How many producers and consumers tried to start here, started or not. */
    public int startAttempts() {
        return startAttempts.get();
    }

    /**
     * A transaction's end is lost after its local transaction ran: the message stays prepared (for
     * {@link #checkBack()}) and the send fails, as a binding that reports the lost end would.
     */
    public synchronized MemoryCluster failTransactionEnds() {
        failTransactionEnds = true;
        return this;
    }

    /** Clears every fault; consumers resume delivering. */
    public synchronized MemoryCluster recover() {
        failuresLeft = 0;
        refusal = null;
        sendDelay = Duration.ZERO;
        silent = false;
        java.util.concurrent.CompletableFuture<Void> gate = answerGate;
        answerGate = null;
        if (gate != null) {
            gate.complete(null);
        }
        failStarts = false;
        startStall = Duration.ZERO;
        startRefusal = null;
        unreachable = null;
        failTransactionEnds = false;
        notifyAll();
        return this;
    }

    /** Answers requests sent to {@code topic} with what {@code responder} returns (a delay server's reply, say). */
    public synchronized MemoryCluster respond(String topic, Function<PhysicalMessage, byte[]> responder) {
        responders.put(topic, responder);
        return this;
    }

    /**
     * Stores {@code message} as a producer outside the code under test would: no fault applies and no send is
     * recorded. Consumers of its topic are woken.
     */
    public BoundSendResult publish(PhysicalMessage message) {
        return store(message);
    }

    // ---- what happened ----

    /** Every send asked of this cluster so far, in order, whatever its outcome. */
    public List<SendRecord> sends() {
        return List.copyOf(sends);
    }

    /** How many messages were sent to this cluster so far, whatever their outcome (a batch counts each). */
    public int attempts() {
        return sends.size();
    }

    /** How many requests reached this cluster so far: a batch request counts once. */
    public long requests() {
        return requests.get();
    }

    /** The messages {@code topic} stores, over all its queues (queue by queue, in offset order). */
    public synchronized List<BoundMessage> stored(String topic) {
        List<BoundMessage> all = new ArrayList<>();
        topics.getOrDefault(topic, List.of()).forEach(all::addAll);
        return all;
    }

    /** Prepared transactional messages whose outcome is not known yet, oldest first. */
    public synchronized List<BoundMessage> preparedMessages() {
        return prepared.values().stream().map(Prepared::message).toList();
    }

    /** Messages {@code group} gave up on after their last delivery attempt, or dead-lettered at once. */
    public synchronized List<BoundMessage> deadLetters(String group) {
        return List.copyOf(group(group).deadLetters);
    }

    /** Messages of {@code topic} that {@code group} has not committed yet, waiting retries included. */
    public synchronized long backlog(String group, String topic) {
        Group state = group(group);
        List<List<BoundMessage>> queues = queues(topic);
        long total = state.retries.stream().filter(m -> m.topic().equals(topic)).count();
        for (int q = 0; q < queues.size(); q++) {
            total += queues.get(q).size() - state.committed.getOrDefault(new QueueId(topic, q), 0L);
        }
        return total;
    }

    /** Every producer created on this cluster, closed ones included, oldest first. */
    public List<BoundProducerSpec> producerSpecs() {
        return producers.stream().map(MemoryProducer::spec).toList();
    }

    /** The producers created on this cluster and not closed yet. */
    public List<BoundProducerSpec> openProducers() {
        return producers.stream().filter(MemoryProducer::isOpen).map(MemoryProducer::spec).toList();
    }

    /** Every consumer created on this cluster, closed ones included, oldest first. */
    public List<BoundConsumerSpec> consumerSpecs() {
        return consumers.stream().map(MemoryConsumer::spec).toList();
    }

    /** The consumers created on this cluster and not closed yet. */
    public List<BoundConsumerSpec> openConsumers() {
        return consumers.stream().filter(MemoryConsumer::isOpen).map(MemoryConsumer::spec).toList();
    }

    /**
     * Asks the producer group of each prepared message (any open producer of it with a check handler) for its
     * outcome, and applies the answer, as a broker's check-back.
     *
     * @return the answers by message id; a message whose group has no open producer is left prepared
     */
    public Map<String, TransactionResolution> checkBack() {
        List<Prepared> waiting;
        synchronized (this) {
            waiting = List.copyOf(prepared.values());
        }
        Map<String, TransactionResolution> answers = new LinkedHashMap<>();
        for (Prepared p : waiting) {
            Optional<TransactionCheckHandler> handler = producers.stream()
                    .filter(producer -> producer.isOpen() && producer.spec().producerGroup().equals(p.group()))
                    .flatMap(producer -> producer.spec().transactionCheckHandler().stream()).findFirst();
            if (handler.isPresent()) {
                TransactionResolution answer = handler.get().check(p.message());
                answers.put(p.message().messageId(), answer);
                end(p.message().messageId(), answer);
            }
        }
        return answers;
    }

    // ---- producers ----

    void checkStart(String what) throws MessagingException {
        startAttempts.incrementAndGet();
        boolean fail;
        Duration stall;
        String refused;
        synchronized (this) {
            fail = failStarts;
            stall = startStall;
            refused = startRefusal;
        }
        if (refused != null) {
            throw new InvalidConfigurationException("cannot start " + what + ": cluster '" + name + "' refused it: " + refused);
        }
        if (!fail) {
            return;
        }
        if (!stall.isZero()) {
            try {
                Thread.sleep(stall.toMillis()); // the binding's own blocking call, as on a silent network
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        throw new SendFailedException("cannot start " + what + " (injected start failure)", null, name, null);
    }

    void register(MemoryProducer producer) {
        producers.add(producer);
    }

    /** How the cluster answers the send now starting: a failure to throw, or the delay before it stores it. */
    synchronized Answer answer(SendRecord.Kind kind, PhysicalMessage message) {
        return answer(kind, List.of(message));
    }

    /** How the cluster answers one request carrying {@code messages}: every fault applies to it as a whole. */
    synchronized Answer answer(SendRecord.Kind kind, List<PhysicalMessage> messages) {
        long request = requests.incrementAndGet();
        String topic = messages.get(0).topic();
        if (silent) {
            messages.forEach(m -> sends.add(new SendRecord(name, kind, m, SendRecord.Outcome.UNANSWERED, request)));
            return Answer.SILENT;
        }
        MessagingException failure = null;
        if (refusal != null) {
            failure = new InvalidMessageException(refusal + " (topic " + topic + ")", null);
        } else if (failuresLeft > 0) {
            if (failuresLeft != Integer.MAX_VALUE) {
                failuresLeft--;
            }
            failure = new SendFailedException("injected send failure (topic " + topic + ")", null, name, null);
        }
        SendRecord.Outcome outcome = failure == null ? SendRecord.Outcome.STORED : SendRecord.Outcome.FAILED;
        messages.forEach(m -> sends.add(new SendRecord(name, kind, m, outcome, request)));
        return new Answer(failure, sendDelay, answerGate);
    }

    /** Appends a batch to one queue of its topic, in order: the sharding key's queue, or the next one round-robin. */
    synchronized List<BoundSendResult> storeBatch(List<PhysicalMessage> messages) {
        int queue = queueOf(messages.get(0));
        List<BoundSendResult> results = new ArrayList<>(messages.size());
        for (PhysicalMessage message : messages) {
            results.add(append(message, newId(), queue));
        }
        return results;
    }

    /** Appends {@code message} to its topic: to the sharding key's queue, or the next one round-robin. */
    synchronized BoundSendResult store(PhysicalMessage message) {
        return append(message, message.messageId().orElseGet(this::newId), queueOf(message));
    }

    synchronized BoundSendResult prepare(String group, PhysicalMessage message) {
        String id = message.messageId().orElseGet(this::newId);
        int queue = queueOf(message);
        prepared.put(id, new Prepared(group, message, queue, toBound(message, id, queue, -1, 1)));
        return new BoundSendResult(id, message.topic(), null, -1, -1);
    }

    synchronized boolean transactionEndsFail() {
        return failTransactionEnds;
    }

    /** Ends a prepared transaction: a commit makes the message visible, a rollback drops it, UNKNOWN waits for check-back. */
    synchronized Optional<BoundSendResult> end(String id, TransactionResolution resolution) {
        if (resolution == TransactionResolution.UNKNOWN) {
            return Optional.empty();
        }
        Prepared p = prepared.remove(id);
        if (p == null || resolution == TransactionResolution.ROLLBACK) {
            return Optional.empty();
        }
        return Optional.of(append(p.physical(), id, p.queue()));
    }

    synchronized Optional<Function<PhysicalMessage, byte[]>> responder(String topic) {
        return Optional.ofNullable(responders.get(topic));
    }

    private String newId() {
        return name + "-" + ids.incrementAndGet();
    }

    private int queueOf(PhysicalMessage message) {
        int queues = queues(message.topic()).size();
        return message.shardingKey().map(key -> Math.floorMod(key.hashCode(), queues))
                .orElseGet(() -> (int) (roundRobin.getAndIncrement() % queues));
    }

    private BoundSendResult append(PhysicalMessage message, String id, int queueId) {
        List<BoundMessage> queue = queues(message.topic()).get(queueId);
        long offset = queue.size();
        queue.add(toBound(message, id, queueId, offset, 1));
        notifyAll();
        return new BoundSendResult(id, message.topic(), brokerName, queueId, offset);
    }

    private BoundMessage toBound(PhysicalMessage message, String id, int queueId, long offset, int attempt) {
        return new BoundMessage(id, message.topic(), message.body(), message.keys(), message.tag(), message.properties(),
                message.shardingKey(), brokerName, queueId, offset, attempt, System.currentTimeMillis());
    }

    private List<List<BoundMessage>> queues(String topic) {
        return topics.computeIfAbsent(topic, t -> {
            List<List<BoundMessage>> queues = new ArrayList<>(DEFAULT_QUEUES);
            for (int q = 0; q < DEFAULT_QUEUES; q++) {
                queues.add(new ArrayList<>());
            }
            return queues;
        });
    }

    // ---- consumers ----

    /** Joins {@code consumer} to its group; a group new to a queue starts there as the spec's start position says. */
    synchronized long join(MemoryConsumer consumer) {
        BoundConsumerSpec spec = consumer.spec();
        Group state = group(spec.consumerGroup());
        for (String topic : consumer.topics()) {
            List<List<BoundMessage>> queues = queues(topic);
            for (int q = 0; q < queues.size(); q++) {
                long start = spec.startPosition() == BoundConsumerSpec.StartPosition.EARLIEST ? 0 : queues.get(q).size();
                state.committed.putIfAbsent(new QueueId(topic, q), start);
            }
        }
        consumers.add(consumer);
        notifyAll();
        return memberSequence.incrementAndGet();
    }

    synchronized void leave(MemoryConsumer consumer) {
        Group state = group(consumer.spec().consumerGroup());
        state.inFlight.values().removeIf(holder -> holder == consumer);
        notifyAll();
    }

    synchronized Optional<List<String>> memberTags(String group) {
        if (silent) {
            return Optional.empty();
        }
        return Optional.of(members(group).stream().flatMap(member -> member.spec().memberTag().stream()).toList());
    }

    synchronized OptionalLong backlogOf(String group, String topic) {
        return silent ? OptionalLong.empty() : OptionalLong.of(backlog(group, topic));
    }

    /**
     * The next message for {@code consumer}, waiting up to {@code waitMillis} for one: a waiting retry of its topics
     * first, then the queues the group's allocation gives it (queue i to the i-th live member, modulo their count),
     * one message in flight per queue. Null when there is none, or the consumer closed.
     */
    synchronized Delivery next(MemoryConsumer consumer, long waitMillis) throws InterruptedException {
        Delivery found = find(consumer);
        if (found == null && consumer.isOpen()) {
            wait(waitMillis);
            found = find(consumer);
        }
        return found;
    }

    private Delivery find(MemoryConsumer consumer) {
        if (silent || !consumer.isOpen()) {
            return null;
        }
        Group state = group(consumer.spec().consumerGroup());
        for (BoundMessage retry : state.retries) {
            if (consumer.topics().contains(retry.topic())) {
                state.retries.remove(retry);
                return new Delivery(retry, null);
            }
        }
        List<MemoryConsumer> members = members(consumer.spec().consumerGroup());
        int index = members.indexOf(consumer);
        for (String topic : consumer.topics()) {
            List<List<BoundMessage>> queues = queues(topic);
            for (int q = 0; q < queues.size(); q++) {
                QueueId queue = new QueueId(topic, q);
                if (q % members.size() != index || state.inFlight.containsKey(queue)) {
                    continue;
                }
                List<BoundMessage> messages = queues.get(q);
                long offset = state.committed.getOrDefault(queue, 0L);
                while (offset < messages.size() && !consumer.accepts(messages.get((int) offset))) {
                    offset++; // filtered out by tag: committed without delivery
                }
                state.committed.put(queue, offset);
                if (offset < messages.size()) {
                    state.inFlight.put(queue, consumer);
                    BoundMessage message = messages.get((int) offset);
                    int attempt = state.orderedAttempts.getOrDefault(queue, 1);
                    return new Delivery(withAttempt(message, attempt), queue);
                }
            }
        }
        return null;
    }

    /**
     * Settles a delivery by its listener's answer. A message to retry goes to the group's retries (ordered: comes
     * again in its place) with its attempt counted, and to the group's dead letters after its last attempt or when the
     * listener answered {@code DEAD_LETTER}.
     */
    synchronized void settle(MemoryConsumer consumer, Delivery delivery, ConsumeResult result) {
        Group state = group(consumer.spec().consumerGroup());
        BoundMessage message = delivery.message();
        boolean retry = result != ConsumeResult.SUCCESS;
        // DEAD_LETTER gives up at once, as RocketMQ's broker does with a message sent back at delay level -1.
        boolean lastAttempt = result == ConsumeResult.DEAD_LETTER
                || message.deliveryAttempt() >= consumer.spec().maxDeliveryAttempts();
        if (retry && lastAttempt) {
            state.deadLetters.add(message);
        }
        QueueId queue = delivery.queue();
        if (queue != null) {
            state.inFlight.remove(queue);
            if (retry && !lastAttempt && consumer.spec().ordered()) {
                state.orderedAttempts.put(queue, message.deliveryAttempt() + 1);
                notifyAll();
                return;
            }
            state.orderedAttempts.remove(queue);
            state.committed.merge(queue, 1L, Long::sum);
        }
        if (retry && !lastAttempt) {
            state.retries.add(withAttempt(message, message.deliveryAttempt() + 1));
        }
        notifyAll();
    }

    synchronized void wake() {
        notifyAll();
    }

    private List<MemoryConsumer> members(String group) {
        return consumers.stream().filter(c -> c.isOpen() && c.spec().consumerGroup().equals(group)).toList();
    }

    private Group group(String group) {
        return groups.computeIfAbsent(group, g -> new Group());
    }

    private static BoundMessage withAttempt(BoundMessage m, int attempt) {
        return new BoundMessage(m.messageId(), m.topic(), m.body(), m.keys(), m.tag(), m.properties(), m.shardingKey(),
                m.brokerName(), m.queueId(), m.queueOffset(), attempt, m.bornTimestamp());
    }

    @Override
    public String toString() {
        return "MemoryCluster[" + name + "]";
    }

    /** How a send is answered: {@link #SILENT}, a failure, or stored after a delay, once {@code gate} (if any) completes. */
    record Answer(MessagingException failure, Duration delay, java.util.concurrent.CompletableFuture<Void> gate) {
        static final Answer SILENT = new Answer(null, null, null);

        boolean silent() {
            return this == SILENT;
        }
    }

    /** A message handed to one consumer; {@code queue} is null for a retry, which holds no queue. */
    record Delivery(BoundMessage message, QueueId queue) {
    }

    record QueueId(String topic, int queueId) {
    }

    private record Prepared(String group, PhysicalMessage physical, int queue, BoundMessage message) {
    }

    /** A consumer group's state on this cluster. */
    private static final class Group {
        final Map<QueueId, Long> committed = new HashMap<>();
        final Map<QueueId, MemoryConsumer> inFlight = new HashMap<>();
        final Map<QueueId, Integer> orderedAttempts = new HashMap<>();
        final Deque<BoundMessage> retries = new ArrayDeque<>();
        final List<BoundMessage> deadLetters = new ArrayList<>();
    }
}

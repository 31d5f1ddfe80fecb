package io.lanemq.delay.server;

import io.lanemq.api.MessagingException;
import io.lanemq.api.Producer;
import io.lanemq.api.SendFailedException;
import io.lanemq.api.SendResult;
import io.lanemq.config.ClusterConfig;
import io.lanemq.core.delay.DelayProtocol;
import io.lanemq.delay.CancelResult;
import io.lanemq.delay.DelayEngine;
import io.lanemq.delay.DelayEngineException;
import io.lanemq.delay.DelayId;
import io.lanemq.delay.DelayRejectedException;
import io.lanemq.delay.DelayStoreException;
import io.lanemq.delay.DelayedRecord;
import io.lanemq.delay.DroppedRange;
import io.lanemq.delay.ScheduleOutcome;
import io.lanemq.delay.StoreHealth;
import io.lanemq.rocketmq.FetchedMessage;
import io.lanemq.rocketmq.QueueRef;
import io.lanemq.rocketmq.RawProducer;
import io.lanemq.rocketmq.reader.QueueReader;
import io.lanemq.rocketmq.reader.ReadPolicy;
import io.lanemq.rocketmq.reader.RouteCheck;
import io.lanemq.support.NamedThreads;
import io.lanemq.support.Clocks;
import io.lanemq.support.attach.AttachLoop;
import io.lanemq.support.attach.AttachPolicy;
import io.lanemq.support.attach.AttemptBudget;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The delay server for one cluster: reads the cluster's internal topic, keeps SCHEDULE records
 * in an engine of its own, applies CANCELs and answers them, and commits each queue's offset only
 * below its lowest record that is not yet safe.
 *
 * <p><b>Why offsets wait for settlement.</b> The store is one machine's disk. A record whose
 * offset is committed exists only there until it is delivered; if the machine is lost, so is the
 * record. Holding the offset until the engine reports the record delivered (or cancelled) means a
 * new owner of the queue re-reads everything that might not have been delivered. A long delay
 * would hold its queue's offset for days, and outlive the broker's retention, so a record held
 * longer than {@code reenqueueAfter} is sent again to the same queue (same id) and, once that send
 * is acknowledged, no longer holds the old offset; the engine recognises the copy as the same id.
 *
 * <p><b>Checkpoint.</b> At graceful shutdown (and every {@code checkpointInterval}) the ledgers are
 * written to a {@link LedgerCheckpoint}; a restart on the same store rebuilds them from it and reads
 * each queue on from the checkpoint's next offset instead of re-reading one copy of every pending
 * record ({@link CheckpointedQueues}).
 *
 * <p>Threads: {@code lanemq-delay-<cluster>-poll}, its {@link QueueReader}'s, reads, schedules and
 * commits (and restores checkpointed queues); {@code -maintenance} re-enqueues, hands lost queues
 * over and writes periodic checkpoints; the engine's own threads deliver and report settlement.
 */
final class ClusterDelayService implements ReadPolicy<QueueLedger>, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ClusterDelayService.class);
    private static final long POLL_MILLIS = 100;
    private static final long STORE_RETRY_MILLIS = 1_000;
    private static final int REENQUEUE_BATCH = 10_000;
    /** Ids handed over per engine call, so a large queue's hand-over does not build one huge list. */
    private static final int HANDOVER_BATCH = 50_000;
    /** RocketMQ's default of 10 per pull cannot keep up with a burst of thousands of sends a second. */
    private static final int PULL_BATCH = 128;

    private final ClusterConfig cluster;
    private final DelayServerOptions settings;
    private final Producer delivery;
    private final DelayServerMetrics metrics;
    private final String instance;
    /** The store's, the ledgers' and the lags' clocks. */
    private final Clocks clocks;
    private final SettlementBook book = new SettlementBook();
    /**
     * Read: scheduling one message (join a pending id, or store it). Write: handing a lost queue's
     * records over. Without it a copy could join an id in the instant between the engine dropping
     * it and the book forgetting it, and wait for a record nobody holds.
     */
    private final ReentrantReadWriteLock handover = new ReentrantReadWriteLock();
    /** Set by the attach thread when reading starts; null until then. */
    private volatile CheckpointedQueues checkpoints;
    private AttachLoop attach;
    /** Asked first by every attempt to read, kept until reading or closed. */
    private RouteCheck routes;
    /** Whether {@link #reader} started (an attempt sets it before its start); guarded by this. */
    private boolean readerStarted;
    private Path storeDir;
    private DelayEngine engine;
    private volatile QueueReader<QueueLedger> reader;
    private RawProducer upstream;
    private ScheduledExecutorService maintenance;
    private volatile boolean running;
    /** Counted down by {@link #close()}: ends a wait for the store at once. */
    private final CountDownLatch stopped = new CountDownLatch(1);

    ClusterDelayService(ClusterConfig cluster, DelayServerOptions settings, Producer delivery,
            DelayServerMetrics metrics, String instance, Clocks clocks) {
        this.clocks = clocks;
        this.cluster = cluster;
        this.settings = settings;
        this.delivery = delivery;
        this.metrics = metrics;
        this.instance = instance;
    }

    /**
     * Opens (and recovers) the store, which delivers what is due from now on, and starts reading the internal topic
     * in the background ({@link AttachLoop}): a cluster that is down or silent at the start delays neither this server's
     * start nor the other clusters; it is read from the moment it answers. Returns once the store is open.
     */
    void start(AttachPolicy policy, AttemptBudget budget, AttachLoop.Outcomes outcomes)
            throws DelayStoreException, MessagingException {
        storeDir = settings.storeDir().resolve(cluster.name());
        engine = DelayEngine.builder()
                .directory(storeDir)
                .name("d-" + cluster.name())
                .sink(this::deliver)
                .settlementListener(book::settled)
                .shutdownGrace(settings.shutdownGrace())
                .clock(clocks.wall())
                .ticker(clocks.ticker())
                .build();
        for (DroppedRange dropped : engine.recoveryReport().dropped()) {
            // Nothing to do but say so: its offsets were never committed (not settled), so it is read again below.
            log.warn("Store of cluster {} dropped {} bytes at offset {} of {} ({}, due {}..{}): those records are "
                    + "re-read from the internal topic [{}]", cluster.name(), dropped.length(), dropped.offset(),
                    dropped.segment().getFileName(), dropped.kind(), dropped.bucketStartMillis(),
                    dropped.bucketEndMillis(), dropped.reason());
        }
        metrics.bind(engine, this::heldOffsets, this::ledgerBytes);

        // A producer's start does not contact the cluster: it never waits for an unreachable one.
        upstream = RawProducer.start(settings.serverGroup() + "-producer", cluster.endpoint(),
                instance + "-" + cluster.name() + "-producer");

        // Before the reader: its first rebalance may already hand work to the maintenance thread.
        maintenance = Executors.newSingleThreadScheduledExecutor(
                NamedThreads.single("lanemq-delay-" + cluster.name() + "-maintenance"));
        running = true;
        routes = RouteCheck.of(cluster.endpoint());
        attach = AttachLoop.start("lanemq-delay-" + cluster.name() + "-attach", "Delay server reading cluster "
                + cluster.name(), policy, budget, failure -> true, this::startReading, outcomes, clocks.ticker());
    }

    /** Waits until reading this cluster started or failed its first attempt, {@code within} at most; true when reading. */
    boolean awaitFirstAnswer(Duration within) throws InterruptedException {
        return attach.awaitFirstAnswer(within);
    }

    /** One attempt to read the internal topic: a reader whose start failed cannot start again, so each is new. */
    private void startReading() throws MessagingException {
        QueueReader<QueueLedger> next = QueueReader.<QueueLedger>builder(settings.serverGroup(), cluster.endpoint())
                .routeCheck(routes)
                .name("Delay server of cluster " + cluster.name())
                .instanceName(instance + "-" + cluster.name() + "-consumer")
                .threadName("lanemq-delay-" + cluster.name() + "-poll")
                .topics(settings.internalTopic())
                .fromFirstOffset(true)
                .pullBatchSize(PULL_BATCH)
                .pollTimeout(Duration.ofMillis(POLL_MILLIS))
                .commitInterval(settings.commitInterval())
                .ledgers(queue -> book.register(new QueueLedger(queue)))
                .policy(this)
                .build();
        CheckpointedQueues restored = new CheckpointedQueues(
                new CheckpointedQueues.Store(cluster.name(), storeDir, engine, book, metrics, clocks), next, this::handOver);
        restored.open();
        // Set before the start: the reader's first rebalance and poll use them at once.
        checkpoints = restored;
        reader = next;
        try {
            next.start();
        } catch (MessagingException | RuntimeException e) {
            reader = null;
            checkpoints = null;
            restored.close();
            next.close();
            throw e;
        }
        synchronized (this) {
            if (!running) {
                // Closed during the attempt: nothing may keep reading (close() may have stopped it already).
                next.close();
                restored.close();
                return;
            }
            readerStarted = true;
            routes.close(); // reading for good: no attempt follows
            long every = settings.commitInterval().toMillis();
            maintenance.scheduleWithFixedDelay(this::reenqueueOverdue, every, every, TimeUnit.MILLISECONDS);
            long checkpointEvery = settings.checkpointInterval().toMillis();
            if (checkpointEvery > 0) {
                maintenance.scheduleWithFixedDelay(restored::periodicWrite, checkpointEvery, checkpointEvery,
                        TimeUnit.MILLISECONDS);
            }
        }
        log.info("Delay server for cluster {} reading {} as {} [store={}, pending={}, recovered in {} ms]",
                cluster.name(), settings.internalTopic(), settings.serverGroup(),
                settings.storeDir().resolve(cluster.name()), engine.pendingCount(),
                engine.recoveryReport().took().toMillis());
    }

    /** Restores checkpointed queues on the reading thread, which skips their messages meanwhile. */
    @Override
    public boolean beforePoll() {
        checkpoints.restorePending();
        return true;
    }

    @Override
    public void onBatch(List<FetchedMessage> batch) {
        List<CancelAnswer> cancels = new ArrayList<>();
        try {
            for (FetchedMessage m : batch) {
                if (!running) {
                    return; // not acted on, not committed: read again after restart
                }
                QueueRef queue = m.queue();
                if (checkpoints.restoring(queue)) {
                    continue; // pulled before the restore decided where to read from; the seek after it reads again
                }
                handle(m, queue, cancels);
            }
        } finally {
            // Before the reader may commit (it does so only between batches, on this thread).
            answer(cancels);
        }
    }

    private void handle(FetchedMessage m, QueueRef queue, List<CancelAnswer> cancels) {
        QueueLedger ledger = reader.ledger(queue);
        try {
            InternalMessages.Request request = InternalMessages.parse(m, cluster.name());
            if (request instanceof InternalMessages.Schedule schedule) {
                schedule(m, ledger, schedule.record());
            } else {
                cancel(m, ledger, ((InternalMessages.Cancel) request).id(), cancels);
            }
        } catch (IllegalArgumentException | DelayRejectedException e) {
            // Not something a retry can fix; committing past it is the only way forward.
            metrics.malformed.increment();
            ledger.read(m.offset());
            log.error("Skipping an internal-topic message of cluster {} [queue={}, offset={}, msgId={}]: {}",
                    cluster.name(), m.queue().queueId(), m.offset(), m.msgId(), e.getMessage());
        }
    }

    private void schedule(FetchedMessage m, QueueLedger ledger, DelayedRecord record) throws DelayRejectedException {
        ScheduleOutcome outcome;
        handover.readLock().lock();
        try {
            if (book.hold(ledger, m.offset(), record.id(), clocks.wall().millis())) {
                return; // a copy this server re-enqueued: the record is already stored and pending here
            }
            outcome = untilStored(() -> engine.schedule(record));
        } catch (DelayRejectedException e) {
            book.settled(record.id()); // never stored: nothing to wait for
            throw e;
        } finally {
            handover.readLock().unlock();
        }
        if (outcome == ScheduleOutcome.DUPLICATE_SETTLED) {
            book.settled(record.id());
        }
        if (outcome == ScheduleOutcome.STORED) {
            metrics.scheduled.increment();
        }
    }

    /** A cancel applied in the engine, to be answered once it is forced. */
    private record CancelAnswer(FetchedMessage message, QueueLedger ledger, DelayId id, CancelResult result) {
    }

    /**
     * Applies a CANCEL in the engine without forcing it: the whole pull's cancels are forced together
     * by {@link #answer}, which alone releases their offsets and replies.
     */
    private void cancel(FetchedMessage m, QueueLedger ledger, DelayId id, List<CancelAnswer> cancels)
            throws DelayRejectedException {
        CancelResult result = untilStored(() -> engine.cancelUnflushed(id));
        cancels.add(new CancelAnswer(m, ledger, id, result));
    }

    /**
     * Forces the pull's cancels to the device (one force per bucket involved), then lets their
     * offsets be committed and answers them: neither a commit past a CANCEL nor a {@code CANCELLED}
     * reply may come before the cancel would survive a power loss, or the record could still be
     * delivered. The earlier answers ({@code ALREADY_CANCELLED} of a cancel in the same pull) wait too.
     */
    private void answer(List<CancelAnswer> cancels) {
        if (cancels.isEmpty()) {
            return;
        }
        try {
            untilStored(() -> {
                engine.flushCancels();
                return null;
            });
        } catch (DelayRejectedException e) {
            throw new IllegalStateException("a flush cannot be rejected", e); // only schedule() rejects
        }
        for (CancelAnswer c : cancels) {
            c.ledger().read(c.message().offset());
            metrics.cancelled(c.result().name());
            reply(c);
        }
    }

    private void reply(CancelAnswer c) {
        FetchedMessage m = c.message();
        String replyTo = m.replyToClient().orElse(null);
        log.debug("Cancel of {} on cluster {}: {} [queue={}, offset={}, replyTo={}]", c.id(), cluster.name(),
                c.result(), m.queue().queueId(), m.offset(), replyTo);
        if (replyTo == null) {
            return; // not sent as a request (or by an old client): nobody waits for an answer
        }
        String what = "cancel reply [id=" + c.id() + ", result=" + c.result() + "]";
        // A failure loses only the answer (the sender times out): the cancel itself is applied and durable.
        upstream.reply(m, c.result().name().getBytes(StandardCharsets.UTF_8)).whenComplete((stored, failure) -> {
            if (failure == null) {
                log.debug("Cluster {}: {} sent", cluster.name(), what);
            } else {
                log.warn("Cluster {}: {} failed: {}", cluster.name(), what, failure.toString());
            }
        });
    }

    @FunctionalInterface
    private interface StoreCall<T> {
        T call() throws DelayEngineException;
    }

    /**
     * Retries while the disk refuses (full, read-only): reading on would mean committing past
     * records that are not stored. Stops reading meanwhile, which is the back-pressure we want.
     * Between tries it waits for {@link #close()}, so a stop never waits out a retry interval.
     */
    private <T> T untilStored(StoreCall<T> call) throws DelayRejectedException {
        while (true) {
            try {
                return call.call();
            } catch (DelayRejectedException e) {
                throw e;
            } catch (DelayEngineException e) {
                if (!running) {
                    // Shutting down: the message stays uncommitted and is read again after restart.
                    throw new IllegalStateException("stopped while the store refused writes: " + e.getMessage(), e);
                }
                log.error("Delay store of cluster {} refused a write; retrying in {} ms: {}", cluster.name(),
                        STORE_RETRY_MILLIS, e.getMessage());
                boolean stopping;
                try {
                    stopping = stopped.await(STORE_RETRY_MILLIS, TimeUnit.MILLISECONDS);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while the store refused writes", ie);
                }
                if (stopping) {
                    throw new IllegalStateException("stopped while the store refused writes: " + e.getMessage(), e);
                }
            }
        }
    }

    /** The engine's sink: the original message to its logic topic through the SDK (routing and failover apply). */
    private CompletionStage<?> deliver(DelayedRecord record) {
        metrics.fireLag(clocks.wall().millis() - record.dueAtMillis());
        CompletableFuture<SendResult> sent = delivery.sendAsync(InternalMessages.toDelivery(record))
                .thenApply(ClusterDelayService::requireStoredAsConfigured);
        return sent.whenComplete((result, failure) -> {
            if (failure == null) {
                metrics.delivered.increment();
                metrics.dueLag(clocks.wall().millis() - record.dueAtMillis());
            } else {
                metrics.deliveryFailed.increment();
            }
        });
    }

    /**
     * A delivery the broker stored but did not flush or replicate as configured is not settled: settling it would
     * commit the record's offset, and a power loss of that broker could then lose the message for good. It fails, so
     * the engine delivers it again (a possible duplicate, never a loss), as the proxy does with such answers.
     */
    static SendResult requireStoredAsConfigured(SendResult result) {
        if (!result.storedAsConfigured()) {
            throw new CompletionException(new SendFailedException("message " + result.messageId()
                    + " is stored but not yet flushed or replicated as its broker is configured to; delivering it again",
                    result.logicTopic(), result.cluster(), null));
        }
        return result;
    }

    /** Sends records that have held their offset too long to the same queue again, then lets go of the old offset. */
    private void reenqueueOverdue() {
        try {
            reenqueueOverdue(clocks.wall().millis());
        } catch (RuntimeException e) {
            log.error("Delay server maintenance of cluster {} failed; continuing", cluster.name(), e);
        }
    }

    private void reenqueueOverdue(long now) {
        for (QueueLedger ledger : reader.ledgers()) {
            List<QueueLedger.Held> overdue = ledger.claimOverdue(now, settings.reenqueueAfter().toMillis(),
                    REENQUEUE_BATCH);
            if (overdue.isEmpty()) {
                continue;
            }
            List<DelayId> ids = new ArrayList<>(overdue.size());
            overdue.forEach(h -> ids.add(h.id()));
            Map<DelayId, DelayedRecord> pending;
            try {
                pending = engine.readPending(ids);
            } catch (DelayStoreException e) {
                overdue.forEach(h -> ledger.unclaim(h.offset()));
                log.warn("Could not read records to re-enqueue for cluster {}: {}", cluster.name(), e.getMessage());
                continue;
            }
            for (QueueLedger.Held h : overdue) {
                DelayedRecord record = pending.get(h.id());
                if (record == null) {
                    ledger.unclaim(h.offset()); // being delivered or just settled: its settlement releases the offset
                    continue;
                }
                reenqueue(ledger, h, record);
            }
        }
    }

    private void reenqueue(QueueLedger ledger, QueueLedger.Held h, DelayedRecord record) {
        upstream.sendToQueue(InternalMessages.toReenqueue(record, settings.internalTopic()), ledger.queue)
                .whenComplete((stored, failure) -> {
                    if (Reenqueued.answered(book, ledger, h, failure == null ? stored : null)) {
                        metrics.reenqueued.increment();
                    } else if (failure != null) {
                        log.warn("Re-enqueue of {} to {} failed; trying again later: {}", h.id(), ledger.queue,
                                failure.toString());
                    } else {
                        log.debug("Re-enqueue of {} to {} stored but not yet flushed or replicated as configured; "
                                + "keeping the old offset, trying again later", h.id(), ledger.queue);
                    }
                });
    }

    /** Offsets read but not yet safe to commit, over every queue of this cluster. */
    long heldOffsets() {
        long n = 0;
        for (QueueLedger ledger : ledgers()) {
            n += ledger.heldCount();
        }
        return n;
    }

    /** Heap the offset bookkeeping takes (ledgers and settlement book), estimated from their array sizes. */
    long ledgerBytes() {
        long bytes = book.estimatedBytes();
        for (QueueLedger ledger : ledgers()) {
            bytes += ledger.estimatedBytes();
        }
        return bytes;
    }

    /** The gauges are bound before the reader exists. */
    private Collection<QueueLedger> ledgers() {
        QueueReader<QueueLedger> current = reader;
        return current == null ? List.of() : current.ledgers();
    }

    /**
     * Healthy while the store takes writes and the internal topic is read, or is being attached in the background: a
     * cluster that is unreachable does not make the server unready, since the other clusters are served meanwhile (its
     * line in {@code /readyz} and the attach meter say so).
     */
    boolean healthy() {
        StoreHealth health = engine.health();
        return running && health.writable() && (!attach.attached() || reading());
    }

    /** Whether the internal topic is read (false while the cluster is attached in the background). */
    boolean reading() {
        QueueReader<QueueLedger> current = reader;
        return running && attach.attached() && current != null && current.isReading();
    }

    String describeHealth() {
        StoreHealth health = engine.health();
        return "cluster=" + cluster.name() + " reading=" + reading() + attach.reason().map(r -> " (" + r + ")").orElse("")
                + " writable=" + health.writable() + " pending=" + engine.pendingCount() + " heldOffsets=" + heldOffsets()
                + " storeErrors=" + health.errors() + (health.lastError().isEmpty() ? "" : " lastError=" + health.lastError());
    }

    DelayEngine engine() {
        return engine;
    }

    /**
     * Stops reading, lets deliveries under way finish (their settlement releases offsets), commits
     * what is safe and leaves the group. What is still pending stays in the store and held upstream.
     */
    @Override
    public void close() {
        boolean started;
        synchronized (this) {
            running = false;
            started = readerStarted;
        }
        stopped.countDown();
        if (attach != null) {
            attach.close();
        }
        if (routes != null) {
            routes.close();
        }
        // A reader not started (its cluster never answered) has read nothing: no commit, no checkpoint to write.
        QueueReader<QueueLedger> reader = started ? this.reader : null;
        CheckpointedQueues checkpoints = started ? this.checkpoints : null;
        if (reader != null) {
            try {
                reader.stopReading();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (maintenance != null) {
            maintenance.shutdownNow();
            try {
                // A periodic checkpoint under way must not race the final one over the same file.
                maintenance.awaitTermination(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (engine != null) {
            engine.close();
        }
        if (reader != null) {
            // A failure is logged by the reader; the next owner then reads a little more again.
            boolean committed = reader.commitNow();
            checkpoints.close();
            if (committed) {
                checkpoints.write(); // reading and delivering have stopped: the ledgers are final
            }
            reader.close();
        }
        if (checkpoints != null) {
            checkpoints.close();
        }
        if (upstream != null) {
            upstream.close();
        }
    }

    /**
     * Hands the records of lost queues over: the new owner reads them again from the committed
     * offset (never above one of them), so this server drops its copies instead of delivering them
     * twice, and a CANCEL the new owner reads is not undone by a copy still pending here.
     */
    private void handOver(List<QueueLedger> lost) {
        for (QueueLedger ledger : lost) {
            handover.writeLock().lock();
            try {
                int dropped = 0;
                long from = 0;
                for (List<QueueLedger.Held> page = ledger.held(from, HANDOVER_BATCH); !page.isEmpty();
                        page = ledger.held(from, HANDOVER_BATCH)) {
                    List<DelayId> ids = new ArrayList<>(page.size());
                    page.forEach(h -> ids.add(h.id()));
                    dropped += engine.relinquish(ids);
                    from = page.get(page.size() - 1).offset() + 1;
                }
                log.info("Cluster {}: queue {} is read by another server now; handed over {} pending records",
                        cluster.name(), ledger.queue.queueId(), dropped);
            } catch (DelayStoreException | IllegalStateException e) {
                log.warn("Cluster {}: could not hand over the records of queue {}; they may be delivered twice: {}",
                        cluster.name(), ledger.queue.queueId(), e.getMessage());
            } finally {
                book.drop(ledger);
                handover.writeLock().unlock();
            }
        }
    }

    /** A queue taken away is no longer committed by this server: its new owner reads from what was committed. */
    @Override
    public void queuesChanged(String topic, Set<QueueRef> all, Set<QueueRef> mine,
            Map<QueueRef, QueueLedger> revoked) {
        checkpoints.assigned(mine);
        if (!revoked.isEmpty()) {
            List<QueueLedger> lost = List.copyOf(revoked.values());
            try {
                maintenance.execute(() -> handOver(lost));
            } catch (RejectedExecutionException e) {
                // Shutting down: the records stay in this store; the next owner reads them again too.
            }
        }
        log.info("Cluster {}: this server now reads {} of {} queues of {}", cluster.name(), mine.size(),
                all.size(), topic);
    }
}

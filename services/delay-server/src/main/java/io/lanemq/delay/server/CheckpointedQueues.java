package io.lanemq.delay.server;

import io.lanemq.api.MessagingException;
import io.lanemq.delay.DelayEngine;
import io.lanemq.delay.DelayStoreException;
import io.lanemq.rocketmq.QueueRef;
import io.lanemq.rocketmq.reader.QueueReader;
import io.lanemq.support.Clocks;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One cluster's ledger checkpoint, for {@link ClusterDelayService}: opened at start, written at graceful stop and
 * periodically, and the queues it covers from their assignment until each is settled: restored from it (its ledger
 * rebuilt by {@link CheckpointRestore}, read on from its next offset) or found not to fit and read again from the
 * broker's committed offset. The reading thread calls {@link #restorePending()} and skips the messages of a queue
 * while {@link #restoring(QueueRef)}; the rebalance listener calls {@link #assigned(Set)}.
 */
final class CheckpointedQueues {

    private static final Logger log = LoggerFactory.getLogger(CheckpointedQueues.class);

    private final String cluster;
    private final Path storeDir;
    private final DelayEngine engine;
    private final SettlementBook book;
    /** The service's reader: restored ledgers are adopted by it, written ones read from it, restored queues sought on it. */
    private final QueueReader<QueueLedger> reader;
    private final DelayServerMetrics metrics;
    /** The service's hand-over of a queue taken away while it was being restored. */
    private final Consumer<List<QueueLedger>> handOver;
    /** Assigned queues the checkpoint covers, not yet restored: their messages are skipped until then. */
    private final Set<QueueRef> restoring = ConcurrentHashMap.newKeySet();
    /** Queues of {@link #restoring} whose seek failed while still assigned: retried. Reading thread only. */
    private final Map<QueueRef, Long> pendingSeeks = new HashMap<>();
    /** Times the checkpoint's steps (logged) and stamps a written checkpoint. */
    private final Clocks clocks;
    /** The checkpoint found at start, while some of its queues are not restored yet; else null. */
    private volatile LedgerCheckpoint.Loaded checkpoint;

    /**
     * One cluster's store and ledgers, as every reader of the cluster checkpoints and restores them.
     *
     * @param storeDir where the store and its checkpoint are
     * @param clocks   times the checkpoint's steps (logged) and stamps a written checkpoint
     */
    record Store(String cluster, Path storeDir, DelayEngine engine, SettlementBook book, DelayServerMetrics metrics,
                 Clocks clocks) {
    }

    CheckpointedQueues(Store store, QueueReader<QueueLedger> reader, Consumer<List<QueueLedger>> handOver) {
        this.clocks = store.clocks();
        this.cluster = store.cluster();
        this.storeDir = store.storeDir();
        this.engine = store.engine();
        this.book = store.book();
        this.reader = reader;
        this.metrics = store.metrics();
        this.handOver = handOver;
    }

    /** From the rebalance listener: assigned queues the checkpoint covers wait to be restored before they are read. */
    void assigned(Set<QueueRef> mine) {
        LedgerCheckpoint.Loaded loaded = checkpoint;
        if (loaded != null) {
            for (QueueRef queue : mine) {
                if (reader.findLedger(queue) == null && loaded.covers(queue)) {
                    restoring.add(queue); // the reading thread restores it and seeks it before reading it
                }
            }
        }
        restoring.retainAll(mine);
    }

    /**
     * True while the queue's messages must be skipped: the restore has not decided where its reading resumes. Called
     * by the reading thread for every message before it is handled. A queue the checkpoint covers whose messages
     * arrive before the rebalance listener named it (RocketMQ may start its pull first) is taken for restoring here:
     * handled, its messages would have made a ledger, and the queue would then be read again from its committed
     * offset instead of restored, so records the checkpoint already held would be read (and scheduled) twice.
     */
    boolean restoring(QueueRef queue) {
        if (!restoring.isEmpty() && restoring.contains(queue)) {
            return true;
        }
        LedgerCheckpoint.Loaded loaded = checkpoint;
        if (loaded != null && loaded.covers(queue) && reader.findLedger(queue) == null) {
            restoring.add(queue);
            return true;
        }
        return false;
    }

    /** Opens the checkpoint a graceful stop (or a periodic write) left in the store directory, if any. */
    void open() {
        long began = clocks.ticker().read();
        try {
            checkpoint = LedgerCheckpoint.open(storeDir, cluster);
        } catch (IOException e) {
            metrics.checkpointRejected.increment();
            log.warn("Cluster {}: {}; every queue is read again from its committed offset", cluster,
                    e.getMessage());
            return;
        }
        if (checkpoint != null) {
            long held = checkpoint.sections().values().stream().mapToLong(LedgerCheckpoint.Section::heldCount).sum();
            log.info("Cluster {}: ledger checkpoint of {} found and checked in {} ms: {} queues, {} held offsets; queues "
                    + "assigned to this server are restored from it", cluster,
                    Instant.ofEpochMilli(checkpoint.writtenAtMillis()),
                    TimeUnit.NANOSECONDS.toMillis(clocks.ticker().read() - began), checkpoint.sections().size(), held);
        }
    }

    /**
     * Restores the queues waiting in {@link #restoring} (on the reading thread, which skips their
     * messages meanwhile), then seeks each to where reading resumes: the checkpoint's next offset,
     * or the broker's committed offset when the checkpoint does not fit.
     */
    void restorePending() {
        if (restoring.isEmpty()) {
            return;
        }
        LedgerCheckpoint.Loaded loaded = checkpoint;
        long began = clocks.ticker().read();
        List<CheckpointRestore.Candidate> candidates = new ArrayList<>();
        Map<QueueRef, Long> fallback = new HashMap<>();
        new HashMap<>(pendingSeeks).forEach(this::seekBeforeReading);
        for (QueueRef queue : List.copyOf(restoring)) {
            if (pendingSeeks.containsKey(queue)) {
                continue;
            }
            Long committed;
            try {
                committed = reader.committed(queue);
            } catch (MessagingException | RuntimeException e) {
                log.warn("Cluster {}: could not read the committed offset of {} to check its checkpoint; trying again: {}",
                        cluster, queue, e.toString());
                continue;
            }
            LedgerCheckpoint.Section section = loaded == null ? null : loaded.take(queue);
            long broker = committed == null ? -1 : committed;
            if (section == null || reader.findLedger(queue) != null) {
                fallback.put(queue, broker);
            } else if (broker > section.nextRead()) {
                metrics.checkpointQueue("discarded");
                log.info("Cluster {}: checkpoint of {} not needed: the broker's committed offset {} is past its next "
                        + "offset {} (everything it held was settled or re-enqueued since, or another server read the queue); "
                        + "reading on from {}", cluster, queue, broker, section.nextRead(), broker);
                fallback.put(queue, broker);
            } else if (broker < section.committed()) {
                metrics.checkpointQueue("discarded");
                log.warn("Cluster {}: checkpoint of {} not used: the broker's committed offset {} is below the checkpoint's "
                        + "{} (a commit was lost?); reading again from {}", cluster, queue, broker,
                        section.committed(), broker);
                fallback.put(queue, broker);
            } else {
                candidates.add(new CheckpointRestore.Candidate(section, broker));
            }
        }
        if (!candidates.isEmpty()) {
            restore(loaded, candidates, fallback, began);
        }
        fallback.forEach(this::seekBeforeReading);
        if (loaded != null && loaded.sections().isEmpty()) {
            close();
        }
    }

    private void restore(LedgerCheckpoint.Loaded loaded, List<CheckpointRestore.Candidate> candidates,
            Map<QueueRef, Long> fallback, long began) {
        CheckpointRestore.Result result;
        try {
            result = CheckpointRestore.restore(loaded, candidates, book, engine, clocks.ticker());
        } catch (IOException | DelayStoreException | RuntimeException e) {
            log.error("Cluster {}: restoring {} queues from the checkpoint failed; reading them again from their "
                    + "committed offsets", cluster, candidates.size(), e);
            candidates.forEach(c -> {
                metrics.checkpointQueue("discarded");
                fallback.put(c.section().queue(), c.brokerCommitted());
            });
            return;
        }
        long restored = 0;
        long released = 0;
        int used = 0;
        for (CheckpointRestore.Outcome o : result.outcomes()) {
            if (o.ledger() == null) {
                metrics.checkpointQueue("discarded");
                log.warn("Cluster {}: checkpoint of {} discarded: {} of its {} held ids are unknown to this store (written "
                        + "for another store?); reading again from committed offset {}", cluster, o.queue(),
                        o.unknown(), o.restored(), o.seekTo());
                fallback.put(o.queue(), o.seekTo());
                continue;
            }
            reader.adoptLedger(o.queue(), o.ledger());
            seekBeforeReading(o.queue(), o.seekTo());
            metrics.checkpointQueue("restored");
            metrics.checkpointRestored.increment(o.restored() - o.releasedAtOnce());
            restored += o.restored();
            released += o.releasedAtOnce();
            used++;
        }
        log.info("Cluster {}: restored {} of {} queues from the checkpoint in {} ms: {} held offsets, {} of them "
                + "released at once (settled since), reading on from each queue's checkpointed next offset; holding "
                + "took {} ms, checking {} stored ids {} ms", cluster, used, candidates.size(),
                TimeUnit.NANOSECONDS.toMillis(clocks.ticker().read() - began), restored, released, result.holdMillis(),
                result.visited(), result.walkMillis());
    }

    /**
     * Seeks a queue of {@link #restoring} to {@code offset} (-1: its beginning) and lets it be read:
     * RocketMQ's seek replaces the queue's pull task and drops what it pulled before, so the messages
     * skipped meanwhile are read again. If the queue is no longer assigned, its ledger is handed
     * over; if the offset is out of the queue's range, it is read from its beginning; if the seek
     * fails otherwise, it is tried again, and the queue stays unread (never committed past) meanwhile.
     */
    private void seekBeforeReading(QueueRef queue, long offset) {
        Exception failure;
        try {
            if (offset >= 0) {
                reader.seek(queue, offset);
            } else {
                reader.seekToBegin(queue);
            }
            readable(queue);
            return;
        } catch (MessagingException | RuntimeException e) {
            failure = e;
        }
        boolean assigned;
        try {
            assigned = reader.isAssigned(queue);
        } catch (MessagingException | RuntimeException e) {
            assigned = true; // unknown: keep it unread and try again
        }
        if (!assigned) {
            readable(queue);
            QueueLedger ledger = reader.findLedger(queue);
            if (ledger != null && reader.forgetLedger(queue, ledger)) {
                handOver.accept(List.of(ledger)); // taken away during the restore
            }
            log.info("Cluster {}: {} was taken away while its checkpoint was restored: {}", cluster, queue,
                    failure.getMessage());
            return;
        }
        if (offset >= 0) {
            try {
                reader.seekToBegin(queue);
                readable(queue);
                log.warn("Cluster {}: could not seek {} to {} ({}); reading it from its beginning instead", cluster,
                        queue, offset, failure.getMessage());
                return;
            } catch (MessagingException | RuntimeException e) {
                failure = e;
            }
        }
        pendingSeeks.put(queue, offset);
        log.warn("Cluster {}: could not seek {} to {}; trying again, not reading it meanwhile: {}", cluster, queue,
                offset, failure.toString());
    }

    private void readable(QueueRef queue) {
        pendingSeeks.remove(queue);
        restoring.remove(queue);
    }

    void close() {
        LedgerCheckpoint.Loaded loaded = checkpoint;
        checkpoint = null;
        if (loaded != null) {
            try {
                loaded.close();
            } catch (IOException e) {
                log.debug("Cluster {}: closing the checkpoint failed: {}", cluster, e.toString());
            }
        }
    }

    void periodicWrite() {
        try {
            write();
        } catch (RuntimeException e) {
            log.error("Cluster {}: periodic checkpoint failed; continuing", cluster, e);
        }
    }

    /**
     * A checkpoint taken after a power loss that the store did not survive would hold offsets of
     * records the store lost; the restore would discard such a queue (unknown id) but not an id
     * awaiting its re-enqueued copy, which would then wait for a record nobody has.
     */
    private void flushStore() throws IOException {
        try {
            engine.flush();
        } catch (DelayStoreException e) {
            throw new IOException(e.getMessage(), e);
        } catch (IllegalStateException e) {
            // The graceful stop's checkpoint comes after the engine closed, which forced everything.
        }
    }

    /** Writes the ledgers as a checkpoint; a failure is logged (a restart then re-reads, as without one). */
    void write() {
        long began = clocks.ticker().read();
        try {
            CheckpointWriter.Written w = CheckpointWriter.write(storeDir, cluster, reader.ledgers(), book,
                    clocks.wall().millis(), this::flushStore);
            metrics.checkpointsWritten.increment();
            log.info("Cluster {}: ledger checkpoint written in {} ms: {} queues, {} held offsets, {} awaiting their "
                    + "re-enqueued copy, {} bytes", cluster, TimeUnit.NANOSECONDS.toMillis(clocks.ticker().read() - began),
                    w.queues(), w.heldOffsets(), w.awaiting(), w.bytes());
        } catch (IOException | RuntimeException e) {
            log.warn("Cluster {}: could not write the ledger checkpoint to {}; a restart re-reads from the committed "
                    + "offsets: {}", cluster, storeDir, e.toString());
        }
    }
}

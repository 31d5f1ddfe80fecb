package io.lanemq.delay;

/**
 * Told when a record stops needing its upstream copy: the delay server commits the internal
 * topic's offset of a record only after this fires for its id.
 *
 * <p>Fires once per settled id, after the fact is durable: a delivery once the sink's future
 * completed and its mark was written and forced (while the write or force fails, not at all: the
 * marks are retried, and a restart meanwhile delivers the record once more); a cancel once its mark
 * was written. It also fires, at load, for a
 * re-consumed copy of an id already settled, since {@link DelayEngine#schedule} could not tell
 * while the bucket was on disk only. Called on engine threads (marks, loader, or the cancelling
 * thread): keep it short and never call back into the engine's blocking methods from it.
 *
 * <pre>{@code
 * DelayEngine.builder().settlementListener(id -> offsets.release(id))...
 * }</pre>
 */
@FunctionalInterface
public interface SettlementListener {

    SettlementListener NONE = id -> {
    };

    void settled(DelayId id);
}

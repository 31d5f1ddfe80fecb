package io.lanemq.delay;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link DelayEngine#forEachRecord}: what a ledger checkpoint is checked against. */
class RecordStatesTest extends EngineTestBase {

    @Test
    void everyStoredIdIsVisitedOnceWithTheStateOfItsFirstCopy() throws Exception {
        DelayedRecord delivered = f.schedule(t0 + 500, "delivered");
        DelayedRecord cancelled = f.schedule(t0 + 2_000, "cancelled");
        DelayedRecord pendingNear = f.schedule(t0 + 2_000, "near");
        DelayedRecord far = f.record(t0 + 3_600_000, "far");
        f.engine.schedule(far);
        f.engine.schedule(far); // a re-read copy appended to a bucket on disk: not a second id
        DelayedRecord farCancelled = f.record(t0 + 3_600_000, "far cancelled");
        f.engine.schedule(farCancelled);
        f.engine.schedule(farCancelled);
        f.engine.cancel(farCancelled.id()); // the first copy decides
        DelayedRecord relinquished = f.schedule(t0 + 7_200_000, "handed over");
        f.engine.relinquish(List.of(relinquished.id()));
        f.engine.cancel(cancelled.id());
        f.advanceTo(t0 + 500);

        Map<DelayId, RecordState> expected = Map.of(
                delivered.id(), RecordState.DELIVERED,
                cancelled.id(), RecordState.CANCELLED,
                pendingNear.id(), RecordState.PENDING,
                far.id(), RecordState.PENDING,
                farCancelled.id(), RecordState.CANCELLED);
        assertThat(states()).containsExactlyInAnyOrderEntriesOf(expected);

        f.restart(); // the same answers from the marks on disk
        assertThat(states()).containsExactlyInAnyOrderEntriesOf(expected);
    }

    @Test
    void aRecordBeingDeliveredIsStillPending() throws Exception {
        f.sink.hold();
        DelayedRecord inFlight = f.schedule(t0 + 1_000, "in flight");
        f.advanceTo(t0 + 1_000);
        assertThat(states()).containsExactly(Map.entry(inFlight.id(), RecordState.PENDING));
        f.sink.release();
        f.engine.awaitCycles();
        assertThat(states()).containsExactly(Map.entry(inFlight.id(), RecordState.DELIVERED));
    }

    private Map<DelayId, RecordState> states() throws DelayStoreException {
        Map<DelayId, RecordState> out = new HashMap<>();
        long visited = f.engine.forEachRecord((due, nonce, state) -> {
            RecordState before = out.put(new DelayId(due, nonce), state);
            assertThat(before).as("visited twice").isNull();
        });
        assertThat(visited).isEqualTo(out.size());
        return out;
    }
}

package io.lanemq.delay;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Handing records over to another server: dropped here, yet a later copy of the same id is stored afresh. */
class RelinquishTest extends EngineTestBase {

    @Test
    void aLoadedPendingRecordIsDroppedAndALaterCopyIsDeliveredOnce() throws Exception {
        DelayedRecord r = f.schedule(t0 + 1_000, "x");
        DelayedRecord kept = f.schedule(t0 + 1_000, "kept");

        assertThat(f.engine.relinquish(List.of(r.id()))).isEqualTo(1);
        assertThat(f.engine.pendingCount()).isEqualTo(1);
        assertThat(f.engine.cancel(r.id())).isEqualTo(CancelResult.UNKNOWN);
        f.advanceTo(t0 + 1_000);
        assertThat(f.sink.ids()).containsExactly(kept.id());

        // The queue comes back: its copy is read again and must be delivered.
        assertThat(f.engine.schedule(r)).isEqualTo(ScheduleOutcome.STORED);
        f.advanceTo(t0 + 1_001);
        assertThat(f.sink.ids()).containsExactly(kept.id(), r.id());
    }

    @Test
    void aRecordOnDiskIsDroppedWithEveryCopyAndTheDropSurvivesARestart() throws Exception {
        DelayedRecord r = f.record(t0 + 3_600_000, "far");
        f.engine.schedule(r);
        f.engine.schedule(r); // a re-read copy, on disk only
        DelayedRecord kept = f.schedule(t0 + 3_600_000, "kept");

        assertThat(f.engine.relinquish(List.of(r.id()))).isEqualTo(2);
        assertThat(f.engine.pendingCount()).isEqualTo(1);
        f.restart();
        assertThat(f.engine.pendingCount()).isEqualTo(1);
        assertThat(f.engine.cancel(r.id())).isEqualTo(CancelResult.UNKNOWN);

        assertThat(f.engine.schedule(r)).isEqualTo(ScheduleOutcome.STORED);
        assertThat(f.engine.readPending(List.of(r.id()))).containsOnlyKeys(r.id());
        f.advanceTo(t0 + 3_600_000);
        assertThat(f.sink.ids()).containsExactlyInAnyOrder(kept.id(), r.id());
        assertThat(f.engine.pendingCount()).isZero();
    }

    @Test
    void recordsBeingDeliveredOrSettledAreLeftAlone() throws Exception {
        DelayedRecord delivered = f.schedule(t0 + 500, "delivered");
        DelayedRecord cancelled = f.schedule(t0 + 2_000, "cancelled");
        f.engine.cancel(cancelled.id());
        f.advanceTo(t0 + 500);
        f.sink.hold();
        DelayedRecord inFlight = f.schedule(t0 + 1_000, "in flight");
        f.advanceTo(t0 + 1_000);

        assertThat(f.engine.relinquish(List.of(delivered.id(), cancelled.id(), inFlight.id(),
                DelayId.random(t0 + 1_000)))).isZero();
        f.sink.release();
        f.engine.awaitCycles();
        assertThat(f.engine.cancel(delivered.id())).isEqualTo(CancelResult.ALREADY_DELIVERED);
        assertThat(f.engine.cancel(inFlight.id())).isEqualTo(CancelResult.ALREADY_DELIVERED);
        assertThat(f.engine.cancel(cancelled.id())).isEqualTo(CancelResult.ALREADY_CANCELLED);
    }

    @Test
    void aCopyStoredAfterTheDropDecidesOnDiskToo() throws Exception {
        DelayedRecord r = f.record(t0 + 3_600_000, "far");
        f.engine.schedule(r);
        f.engine.relinquish(List.of(r.id()));
        f.engine.schedule(r); // stored afresh while the bucket is on disk
        assertThat(f.engine.cancel(r.id())).isEqualTo(CancelResult.CANCELLED);
        f.advanceTo(t0 + 3_700_000);
        assertThat(f.sink.ids()).isEmpty();
        assertThat(f.engine.pendingCount()).isZero();
    }
}

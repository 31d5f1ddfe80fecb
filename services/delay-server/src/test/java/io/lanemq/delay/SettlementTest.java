package io.lanemq.delay;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.support.FakeClock;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The settlement notifications and duplicate outcomes the server's offset commits rest on. */
class SettlementTest {

    @TempDir
    Path dir;
    final List<DelayId> settled = new CopyOnWriteArrayList<>();
    EngineFixture f;
    long t0;

    @BeforeEach
    void open() throws Exception {
        f = new EngineFixture(dir, new FakeClock(), b -> b.settlementListener(settled::add));
        t0 = f.clock.millis();
    }

    @AfterEach
    void close() {
        f.close();
    }

    @Test
    void aDeliveryIsSettledOnlyOnceTheSinkConfirmed() throws Exception {
        f.sink.hold();
        DelayedRecord r = f.schedule(t0 + 1_000, "x");
        f.advanceTo(t0 + 1_000);
        assertThat(f.sink.ids()).containsExactly(r.id());
        assertThat(settled).isEmpty();

        f.sink.release();
        f.engine.awaitCycles(); // the mark is written, then the listener told
        assertThat(settled).containsExactly(r.id());
    }

    @Test
    void aFailedDeliveryIsNotSettledUntilItsRetrySucceeds() throws Exception {
        f.sink.failNext(1);
        DelayedRecord r = f.schedule(t0 + 1_000, "x");
        f.advanceTo(t0 + 1_000);
        assertThat(settled).isEmpty();
        f.advanceTo(t0 + 1_100);
        assertThat(settled).containsExactly(r.id());
    }

    @Test
    void aCancelIsSettledOnceAndItsLaterAnswersAddNothing() throws Exception {
        DelayedRecord near = f.schedule(t0 + 1_000, "near");
        DelayedRecord far = f.schedule(t0 + 7_200_000, "far");
        assertThat(f.engine.cancel(near.id())).isEqualTo(CancelResult.CANCELLED);
        assertThat(f.engine.cancel(far.id())).isEqualTo(CancelResult.CANCELLED);
        assertThat(f.engine.cancel(far.id())).isEqualTo(CancelResult.ALREADY_CANCELLED);
        assertThat(settled).containsExactly(near.id(), far.id());
    }

    @Test
    void aCopyOfAnIdInALoadedBucketIsNotStoredAndSaysWhetherItsOriginalSettled() throws Exception {
        DelayedRecord r = f.record(t0 + 1_000, "x");
        assertThat(f.engine.schedule(r)).isEqualTo(ScheduleOutcome.STORED);
        assertThat(f.engine.schedule(r)).isEqualTo(ScheduleOutcome.DUPLICATE_PENDING);
        f.advanceTo(t0 + 1_000);
        assertThat(f.engine.schedule(r)).isEqualTo(ScheduleOutcome.DUPLICATE_SETTLED);
        f.advanceTo(t0 + 2_000);
        assertThat(f.sink.ids()).containsExactly(r.id());
        assertThat(f.engine.duplicatesSkipped()).isEqualTo(2);
        assertThat(settled).containsExactly(r.id());
    }

    @Test
    void aCopyAppendedToAnUnloadedBucketIsDeliveredOnceAndSettledForBoth() throws Exception {
        DelayedRecord r = f.record(t0 + 3_600_000, "far");
        assertThat(f.engine.schedule(r)).isEqualTo(ScheduleOutcome.STORED);
        assertThat(f.engine.schedule(r)).isEqualTo(ScheduleOutcome.STORED); // on disk only: cannot tell yet
        f.advanceTo(t0 + 3_600_000);
        assertThat(f.sink.ids()).containsExactly(r.id());
        assertThat(f.engine.duplicatesSkipped()).isEqualTo(1);
        assertThat(f.engine.pendingCount()).isZero();
        assertThat(settled).containsExactly(r.id());
    }

    @Test
    void aCopyOfACancelledIdInAnUnloadedBucketIsReportedSettledAtLoad() throws Exception {
        DelayedRecord r = f.record(t0 + 3_600_000, "far");
        f.engine.schedule(r);
        assertThat(f.engine.cancel(r.id())).isEqualTo(CancelResult.CANCELLED);
        settled.clear();
        assertThat(f.engine.schedule(r)).isEqualTo(ScheduleOutcome.STORED);
        f.advanceTo(t0 + 3_600_000 - 30_000); // the bucket loads

        assertThat(settled).containsExactly(r.id());
        f.advanceTo(t0 + 3_700_000);
        assertThat(f.sink.ids()).isEmpty();
        assertThat(f.engine.pendingCount()).isZero();
    }

    @Test
    void readPendingReturnsStoredRecordsThatAreNeitherSettledNorInFlight() throws Exception {
        DelayedRecord loaded = f.schedule(t0 + 1_000, "loaded");
        DelayedRecord onDisk = f.schedule(t0 + 3_600_000, "on disk");
        DelayedRecord cancelled = f.schedule(t0 + 3_600_001, "cancelled");
        DelayedRecord delivered = f.schedule(t0 + 500, "delivered");
        f.engine.cancel(cancelled.id());
        f.advanceTo(t0 + 500);

        Map<DelayId, DelayedRecord> read = f.engine.readPending(List.of(loaded.id(), onDisk.id(), cancelled.id(),
                delivered.id(), DelayId.random(t0 + 1_000)));

        assertThat(read).containsOnlyKeys(loaded.id(), onDisk.id());
        DelayedRecord back = read.get(onDisk.id());
        assertThat(back.body()).isEqualTo(onDisk.body());
        assertThat(back.keys()).isEqualTo(onDisk.keys());
        assertThat(back.properties()).isEqualTo(onDisk.properties());
        assertThat(back.topic()).isEqualTo(onDisk.topic());
    }
}

package io.lanemq.delay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.support.FakeClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store under a power loss ({@link PowerLossDisk}: whatever was not forced is gone). The delay
 * server commits a record's upstream offset once the settlement listener reports it, and answers a
 * cancel once {@code cancel} returns; everything not committed is read again from upstream after a
 * restart. The tests model exactly that: "upstream" re-schedules every record not reported settled.
 */
class PowerLossTest {

    @TempDir
    Path dir;
    private final PowerLossDisk disk = new PowerLossDisk();
    /** Reported settled while the power was on: what the server would have committed upstream. */
    private final Set<DelayId> settled = ConcurrentHashMap.newKeySet();
    private EngineFixture f;
    private long t0;

    private void open() throws Exception {
        FakeClock clock = new FakeClock();
        // Aligned to a bucket, so the tests know which records share a segment file.
        clock.setInstant(Instant.ofEpochMilli(Math.floorDiv(clock.millis(), 60_000) * 60_000 + 60_000));
        f = new EngineFixture(dir, clock, b -> b.files(disk).settlementListener(id -> {
            if (!disk.isOff()) {
                settled.add(id);
            }
        }));
        t0 = clock.millis();
    }

    @AfterEach
    void close() {
        disk.releaseForces();
        if (f != null) {
            f.close();
        }
    }

    @Test
    void afterAPowerLossNoAnsweredCancelIsDeliveredNoPendingRecordIsLostAndEverySettlementIsOnDisk() throws Exception {
        open();
        List<DelayedRecord> records = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            records.add(f.schedule(t0 + 1_000 + i * 1_000L, "r" + i)); // one a second: five one-minute buckets
        }
        f.advanceTo(t0 + 100_000); // 100 delivered and reported
        Set<DelayId> answeredCancelled = new HashSet<>();
        for (DelayedRecord r : records.subList(150, 200)) {
            assertThat(f.engine.cancel(r.id())).isEqualTo(CancelResult.CANCELLED);
            answeredCancelled.add(r.id());
        }
        Set<DelayId> cancelledNotAnswered = new HashSet<>();
        for (DelayedRecord r : records.subList(200, 220)) {
            assertThat(f.engine.cancelUnflushed(r.id())).isEqualTo(CancelResult.CANCELLED);
            cancelledNotAnswered.add(r.id()); // no flushCancels: not answered, not committed upstream
        }
        f.sink.hold();
        f.advanceTo(t0 + 110_000); // ten more handed to the sink, never confirmed
        int deliveredBefore = f.sink.deliveries().size();

        f.powerLossAndRestart(disk);
        Set<DelayId> committed = Set.copyOf(settled);

        assertThat(committed).as("the 100 delivered and the 50 answered cancels were reported")
                .hasSize(150).containsAll(answeredCancelled);
        Map<DelayId, RecordState> onDisk = states(f.engine);
        assertThat(committed).as("every settlement reported before the power loss is on the device")
                .allSatisfy(id -> assertThat(onDisk.get(id)).as("state of %s", id)
                        .isIn(RecordState.DELIVERED, RecordState.CANCELLED));
        assertThat(answeredCancelled).allSatisfy(id -> assertThat(onDisk.get(id)).isEqualTo(RecordState.CANCELLED));
        assertThat(onDisk).as("the power loss took the records of buckets never forced (so this test can fail)")
                .hasSizeLessThan(300);

        // Upstream: what was not committed is read again, SCHEDULEs and the unanswered CANCELs alike.
        for (DelayedRecord r : records) {
            if (!committed.contains(r.id())) {
                f.engine.schedule(r);
            }
        }
        for (DelayId id : cancelledNotAnswered) {
            f.engine.cancel(id);
        }
        f.engine.awaitCycles();
        f.sink.release(); // the dead engine's ten, confirmed too late, and anything held since
        f.advanceTo(t0 + 400_000);

        List<DelayId> afterRestart = f.sink.ids().subList(deliveredBefore, f.sink.ids().size());
        assertThat(afterRestart).as("no answered cancel is delivered").doesNotContainAnyElementsOf(answeredCancelled);
        Set<DelayId> expected = new HashSet<>();
        records.forEach(r -> expected.add(r.id()));
        expected.removeAll(answeredCancelled);
        expected.removeAll(cancelledNotAnswered);
        assertThat(new HashSet<>(f.sink.ids())).as("every record not cancelled is delivered").containsAll(expected);
        assertThat(f.engine.pendingCount()).isZero();
    }

    @Test
    void aNewSegmentsNameIsMadeDurableByItsFirstForceSoItsRecordsOutliveAPowerLoss() throws Exception {
        open();
        List<DelayedRecord> records = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            records.add(f.schedule(t0 + 120_000 + i * 100L, "n" + i)); // one new bucket, not loaded yet
        }
        int directoryForcesBefore = disk.forces("dir");
        assertThat(f.engine.cancelUnflushed(records.get(0).id())).isEqualTo(CancelResult.CANCELLED);

        f.engine.flushCancels(); // forces the segment's records and marks: their first force

        assertThat(disk.forces("dir") - directoryForcesBefore).as("the segment's directory forced with its first force")
                .isPositive();
        f.powerLossAndRestart(disk);
        // The disk drops a file created since boot unless its directory was forced after: without the directory
        // force, both files and the ten records would be gone here.
        Map<DelayId, RecordState> onDisk = states(f.engine);
        assertThat(onDisk).as("every record of the new segment survived").hasSize(10);
        assertThat(onDisk.get(records.get(0).id())).isEqualTo(RecordState.CANCELLED);
    }

    @Test
    void cancelsOfAPullAreForcedOncePerBucketAndReportedOnlyAfterTheForce() throws Exception {
        open();
        List<DelayedRecord> records = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            records.add(f.schedule(t0 + 120_000 + i * 100L, "c" + i)); // all in one bucket, not loaded yet
        }
        for (DelayedRecord r : records) {
            assertThat(f.engine.cancelUnflushed(r.id())).isEqualTo(CancelResult.CANCELLED);
        }
        assertThat(settled).as("nothing reported before the force").isEmpty();
        assertThat(disk.forces(".mark")).isZero();

        f.engine.flushCancels();

        assertThat(settled).hasSize(200);
        assertThat(disk.forces(".mark")).as("one force for 200 cancels").isEqualTo(1);
        assertThat(disk.forces(".seg")).as("the records forced with them").isEqualTo(1);

        f.powerLossAndRestart(disk);
        f.advanceTo(t0 + 200_000);
        assertThat(f.sink.ids()).as("a cancelled record is never delivered").isEmpty();
        assertThat(states(f.engine).values()).hasSize(200).containsOnly(RecordState.CANCELLED);
    }

    @Test
    void deliveredMarksAreForcedInGroupsAndReportedOnlyAfterTheirForce() throws Exception {
        open();
        int n = 2_000;
        for (int i = 0; i < n; i++) {
            f.schedule(t0 + 5_000, "d" + i); // due in the same millisecond, one bucket
        }
        disk.holdForces(); // a slow device: marks pile up behind the first force
        f.clock.setInstant(Instant.ofEpochMilli(t0 + 5_000));
        await().atMost(Duration.ofSeconds(20)).until(() -> f.sink.deliveries().size() == n);
        assertThat(settled).as("nothing reported while its force is under way").isEmpty();

        disk.releaseForces();
        f.engine.awaitCycles();

        assertThat(settled).hasSize(n);
        // The first batch's force, then one for everything that queued behind it (or a few, as batches drain).
        assertThat(disk.forces(".mark")).as("forces of the mark file for %d deliveries", n).isBetween(1, 5);

        f.powerLossAndRestart(disk);
        f.advanceTo(t0 + 70_000);
        assertThat(f.sink.deliveries()).as("nothing delivered again").hasSize(n);
        assertThat(states(f.engine).values()).hasSize(n).containsOnly(RecordState.DELIVERED);
    }

    private static Map<DelayId, RecordState> states(DelayEngine engine) throws DelayStoreException {
        Map<DelayId, RecordState> out = new HashMap<>();
        engine.forEachRecord((due, nonce, state) -> out.put(new DelayId(due, nonce), state));
        return out;
    }
}

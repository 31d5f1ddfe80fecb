package io.lanemq.delay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lanemq.support.FakeClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DiskFailureTest {

    @TempDir
    Path dir;
    private final FailingDisk disk = new FailingDisk();
    /** Reported settled: what the server would commit upstream. */
    private final List<DelayId> settled = new CopyOnWriteArrayList<>();
    private EngineFixture f;
    private long t0;

    @BeforeEach
    void open() throws Exception {
        f = new EngineFixture(dir, new FakeClock(), b -> b.files(disk).settlementListener(settled::add));
        t0 = f.clock.millis();
    }

    @AfterEach
    void close() {
        f.close();
    }

    @Test
    void aFullDiskFailsTheAppendClearlyAndTheEngineKeepsDeliveringWhatItHas() throws Exception {
        DelayedRecord stored = f.schedule(t0 + 1_000, "stored before the disk filled");
        DelayedRecord later = f.schedule(t0 + 120_000, "in a bucket not loaded yet");
        disk.fill();

        DelayedRecord refused = f.record(t0 + 2_000, "refused");
        assertThatThrownBy(() -> f.engine.schedule(refused))
                .isInstanceOf(DelayStoreException.class)
                .hasMessageContaining("No space left on device")
                .hasMessageContaining(refused.id().toString())
                .hasMessageContaining(".seg");
        assertThat(f.engine.health().writable()).isFalse();
        assertThat(f.engine.health().lastError()).contains("No space left on device");
        assertThat(f.engine.pendingCount()).isEqualTo(2);

        f.advanceTo(t0 + 120_000);
        assertThat(f.sink.ids()).containsExactly(stored.id(), later.id());

        disk.heal();
        DelayedRecord accepted = f.schedule(t0 + 121_000, "after space was freed");
        assertThat(f.engine.health().writable()).isTrue();
        f.advanceTo(t0 + 121_000);
        assertThat(f.sink.ids()).containsExactly(stored.id(), later.id(), accepted.id());
    }

    @Test
    void aDeliveryWhoseMarkCannotBeForcedIsNotReportedSettledUntilAForceSucceeds() throws Exception {
        DelayedRecord r = f.schedule(t0 + 1_000, "delivered while the device fails");
        disk.failForces();

        f.advanceTo(t0 + 1_000);
        assertThat(f.sink.ids()).as("delivered to the broker").containsExactly(r.id());
        assertThat(settled).as("not reported: its upstream offset stays held, so a restart would send it again").isEmpty();
        assertThat(f.engine.health().lastError()).contains("could not force the marks").contains("Input/output error");
        f.advanceTo(t0 + 1_000 + 3 * MarkWriter.RETRY_MILLIS); // the clock of the wheel: retries go by the real one
        assertThat(settled).as("still failing").isEmpty();

        disk.heal();
        await().atMost(Duration.ofMillis(5 * MarkWriter.RETRY_MILLIS)).untilAsserted(() ->
                assertThat(settled).as("reported once a retry forced its mark").containsExactly(r.id()));
        f.crashAndRestart();
        f.advanceTo(t0 + 10_000);
        assertThat(f.sink.ids()).as("its mark is on disk: not delivered again after a restart").containsExactly(r.id());
    }

    @Test
    void aHalfWrittenRecordLeavesNoTrace() throws Exception {
        DelayedRecord first = f.schedule(t0 + 3_600_000, "first");
        disk.fill();
        assertThatThrownBy(() -> f.schedule(t0 + 3_600_001, "half written")).isInstanceOf(DelayStoreException.class);
        disk.heal();
        DelayedRecord second = f.schedule(t0 + 3_600_002, "second");

        f.crashAndRestart();

        assertThat(f.engine.recoveryReport().clean()).isTrue();
        assertThat(f.engine.pendingCount()).isEqualTo(2);
        f.advanceTo(t0 + 3_600_002);
        assertThat(f.sink.ids()).containsExactly(first.id(), second.id());
    }

    @Test
    void aReadOnlyDeviceFailsAppendsAndCancelsButNotTheProcess() throws Exception {
        DelayedRecord r = f.schedule(t0 + 3_600_000, "x");
        disk.remountReadOnly();
        assertThatThrownBy(() -> f.schedule(t0 + 3_600_001, "y"))
                .isInstanceOf(DelayStoreException.class).hasMessageContaining("Read-only file system");
        assertThatThrownBy(() -> f.engine.cancel(r.id()))
                .isInstanceOf(DelayStoreException.class).hasMessageContaining("Read-only file system");
        disk.heal();
        assertThat(f.engine.cancel(r.id())).isEqualTo(CancelResult.CANCELLED);
    }

    @Test
    void aDeliveryWhoseMarkCannotBeWrittenIsNotRepeatedByThisProcessNorReportedSettled() throws Exception {
        DelayedRecord r = f.schedule(t0 + 1_000, "x");
        disk.fill();
        f.advanceTo(t0 + 1_000);
        f.advanceTo(t0 + 100_000);
        assertThat(f.sink.ids()).containsExactly(r.id());
        assertThat(settled).as("its offset stays held upstream").isEmpty();
        assertThat(f.engine.health().errors()).isPositive();
        assertThat(f.engine.health().lastError()).contains("could not write the delivered mark");
        // After a restart it is delivered again: a duplicate, never a loss.
        f.crashAndRestart(disk::heal);
        f.engine.awaitCycles();
        assertThat(f.sink.ids()).containsExactly(r.id(), r.id());
    }

    @Test
    void whenMappingFailsSegmentsAreReadInsteadAndEverythingIsDelivered() throws Exception {
        disk.failMaps(); // e.g. vm.max_map_count reached
        DelayedRecord first = f.schedule(t0 + 1_000, "in the bucket loaded at start");
        DelayedRecord second = f.schedule(t0 + 120_000, "in a bucket loaded later");
        DelayedRecord third = f.schedule(t0 + 7_200_000, "cancelled while on disk only");
        assertThat(f.engine.cancel(third.id())).isEqualTo(CancelResult.CANCELLED);
        f.advanceTo(t0 + 100_000);
        f.advanceTo(t0 + 7_200_000);
        assertThat(f.sink.ids()).containsExactly(first.id(), second.id());
        assertThat(f.engine.health().writable()).isTrue();
        assertThat(f.engine.health().lastError()).contains("could not map").contains("Map failed");
    }
}

package io.lanemq.delay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lanemq.support.FakeClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SchedulingTest extends EngineTestBase {

    @Test
    void firesEachRecordAtExactlyItsDueMillisecondInDueOrder() throws Exception {
        Random random = new Random(3);
        List<DelayedRecord> scheduled = new ArrayList<>();
        // Spread over three buckets, two of them beyond the load-ahead window at the start.
        for (int i = 0; i < 300; i++) {
            scheduled.add(f.schedule(t0 + 1 + random.nextInt(150_000), "r" + i));
        }
        scheduled.add(f.schedule(t0 + 90_000, "same-ms-1"));
        scheduled.add(f.schedule(t0 + 90_000, "same-ms-2"));

        f.stepTo(t0 + 150_001);

        List<RecordingSink.Delivery> deliveries = f.sink.deliveries();
        assertThat(deliveries).hasSize(scheduled.size());
        for (RecordingSink.Delivery d : deliveries) {
            assertThat(d.at()).as("fired at its due ms: %s", d.record().id()).isEqualTo(d.record().dueAtMillis());
            assertThat(d.thread()).isEqualTo("lanemq-delay-test-wheel");
        }
        assertThat(deliveries).extracting(d -> d.record().dueAtMillis()).isSorted();
        assertThat(deliveries).extracting(RecordingSink.Delivery::record)
                .containsExactlyInAnyOrderElementsOf(scheduled);
        assertThat(f.engine.pendingCount()).isZero();
    }

    @Test
    void nothingFiresBeforeItsDueTime() throws Exception {
        long due = t0 + 45_123;
        f.schedule(due, "x");
        f.advanceTo(due - 1);
        assertThat(f.sink.deliveries()).isEmpty();
        f.advanceTo(due);
        assertThat(f.sink.deliveries()).extracting(RecordingSink.Delivery::at).containsExactly(due);
    }

    @Test
    void aDueTimeInThePastFiresAtOnce() throws Exception {
        f.advanceTo(t0 + 3_600_000);
        f.schedule(t0 + 5, "an hour late");
        f.schedule(t0 - 86_400_000L * 400, "a year late");
        f.engine.awaitCycles();
        assertThat(f.sink.deliveries()).extracting(RecordingSink.Delivery::at)
                .containsExactly(t0 + 3_600_000, t0 + 3_600_000);
    }

    @Test
    void aRecordScheduledIntoTheLoadedBucketFiresOnTime() throws Exception {
        f.advanceTo(t0 + 10);
        long due = t0 + 12;
        f.schedule(due, "late arrival in the current bucket");
        f.stepTo(due);
        assertThat(f.sink.deliveries()).extracting(RecordingSink.Delivery::at).containsExactly(due);
    }

    @Test
    void acceptsTwoYearsAheadAndRejectsBeyondTheMaximum() throws Exception {
        long twoYears = Duration.ofDays(2 * 365).toMillis();
        f.schedule(t0 + twoYears, "far");
        assertThat(f.engine.pendingCount()).isEqualTo(1);

        DelayedRecord tooFar = f.record(t0 + Duration.ofDays(2 * 366).toMillis() + 1, "too far");
        assertThatThrownBy(() -> f.engine.schedule(tooFar))
                .isInstanceOf(DelayRejectedException.class)
                .hasMessageContaining("exceeds maxDelay PT17568H")
                .hasMessageContaining(tooFar.id().toString());

        f.advanceTo(t0 + twoYears);
        assertThat(f.sink.deliveries()).extracting(RecordingSink.Delivery::at).containsExactly(t0 + twoYears);
    }

    @Test
    void aLowerMaximumIsEnforced() throws Exception {
        f.close();
        f = new EngineFixture(dir, new FakeClock(), b -> b.maxDelay(Duration.ofHours(1)));
        assertThatThrownBy(() -> f.schedule(f.clock.millis() + 3_600_001, "x"))
                .isInstanceOf(DelayRejectedException.class).hasMessageContaining("maxDelay PT1H");
        f.schedule(f.clock.millis() + 3_600_000, "ok");
    }

    @Test
    void aFailedDeliveryIsRetriedWithBackoffAndMarkedOnlyOnSuccess() throws Exception {
        f.sink.failNext(2);
        long due = t0 + 1_000;
        f.schedule(due, "flaky");
        f.advanceTo(due);
        assertThat(f.sink.deliveries()).hasSize(1);
        assertThat(f.engine.pendingCount()).isEqualTo(1);
        f.advanceTo(due + 99);
        assertThat(f.sink.deliveries()).hasSize(1);
        f.advanceTo(due + 100);
        assertThat(f.sink.deliveries()).hasSize(2);
        f.advanceTo(due + 100 + 200);
        assertThat(f.sink.deliveries()).hasSize(3);
        assertThat(f.engine.pendingCount()).isZero();
        f.advanceTo(due + 60_000);
        assertThat(f.sink.deliveries()).hasSize(3);
    }

    @Test
    void sameIdScheduledTwiceIsDeliveredOnce() throws Exception {
        DelayedRecord near = f.record(t0 + 5_000, "near");
        DelayedRecord far = f.record(t0 + 600_000, "far");
        f.engine.schedule(near);
        f.engine.schedule(near); // loaded bucket: recognised at once
        f.engine.schedule(far);
        f.engine.schedule(far); // not loaded yet: both stored, the second marked a duplicate at load
        f.advanceTo(t0 + 600_000);
        assertThat(f.sink.ids()).containsExactly(near.id(), far.id());
        assertThat(f.engine.pendingCount()).isZero();
    }

    @Test
    void settledSegmentsAreDeletedAfterTheirRetention() throws Exception {
        f.schedule(t0 + 1_000, "a");
        f.schedule(t0 + 61_000, "b");
        assertThat(f.engine.storeBytes()).isPositive();
        f.advanceTo(t0 + 61_000);
        assertThat(segmentFiles()).hasSize(2);
        f.advanceTo(t0 + 61_000 + Duration.ofMinutes(10).toMillis());
        assertThat(segmentFiles()).isEmpty();
        assertThat(f.engine.storeBytes()).isZero();
        assertThat(f.engine.cancel(DelayId.random(t0 + 1_000))).isEqualTo(CancelResult.UNKNOWN);
    }

    @Test
    void pendingRecordsOfManyBucketsCostNoWheelEntriesUntilNear() throws Exception {
        for (int i = 0; i < 1_000; i++) {
            f.schedule(t0 + 3_600_000L + i * 60_000L, "b" + i);
        }
        assertThat(f.engine.pendingCount()).isEqualTo(1_000);
        assertThat(files(".seg")).hasSize(1_000);
        f.engine.awaitCycles();
        assertThat(f.sink.deliveries()).isEmpty();
    }

    private List<Path> segmentFiles() throws Exception {
        return files(".seg");
    }

    private List<Path> files(String suffix) throws Exception {
        try (var s = java.nio.file.Files.walk(dir)) {
            return s.filter(p -> p.toString().endsWith(suffix)).sorted(Comparator.naturalOrder()).toList();
        }
    }
}

package io.lanemq.delay;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CancelTest extends EngineTestBase {

    @Test
    void cancelBeforeDueMeansNeverDelivered() throws Exception {
        DelayedRecord near = f.schedule(t0 + 1_000, "near, bucket loaded");
        DelayedRecord far = f.schedule(t0 + 7_200_000, "far, bucket on disk only");
        DelayedRecord kept = f.schedule(t0 + 7_200_001, "kept");

        assertThat(f.engine.cancel(near.id())).isEqualTo(CancelResult.CANCELLED);
        assertThat(f.engine.cancel(far.id())).isEqualTo(CancelResult.CANCELLED);
        assertThat(f.engine.cancel(far.id())).isEqualTo(CancelResult.ALREADY_CANCELLED);
        assertThat(f.engine.pendingCount()).isEqualTo(1);

        f.advanceTo(t0 + 7_300_000);
        assertThat(f.sink.ids()).containsExactly(kept.id());
    }

    @Test
    void cancelAfterDeliveryIsAnsweredAlreadyDelivered() throws Exception {
        DelayedRecord r = f.schedule(t0 + 1_000, "x");
        f.advanceTo(t0 + 1_000);
        assertThat(f.sink.ids()).containsExactly(r.id());
        assertThat(f.engine.cancel(r.id())).isEqualTo(CancelResult.ALREADY_DELIVERED);
    }

    @Test
    void cancelWhileTheSinkIsSendingIsTooLate() throws Exception {
        f.sink.hold();
        DelayedRecord r = f.schedule(t0 + 1_000, "x");
        f.advanceTo(t0 + 1_000);
        assertThat(f.engine.cancel(r.id())).isEqualTo(CancelResult.ALREADY_DELIVERED);
        f.sink.release();
        assertThat(f.engine.pendingCount()).isZero();
    }

    @Test
    void unknownIdsAreUnknown() throws Exception {
        f.schedule(t0 + 1_000, "x");
        assertThat(f.engine.cancel(DelayId.random(t0 + 1_000))).isEqualTo(CancelResult.UNKNOWN);
        assertThat(f.engine.cancel(DelayId.random(t0 + 5_000_000))).isEqualTo(CancelResult.UNKNOWN);
    }

    @Test
    void aCancelSurvivesRestartAndCrash() throws Exception {
        DelayedRecord a = f.schedule(t0 + 3_600_000, "a");
        DelayedRecord b = f.schedule(t0 + 3_600_000, "b");
        assertThat(f.engine.cancel(a.id())).isEqualTo(CancelResult.CANCELLED);
        f.restart();
        assertThat(f.engine.pendingCount()).isEqualTo(1);
        assertThat(f.engine.cancel(b.id())).isEqualTo(CancelResult.CANCELLED);
        f.crashAndRestart();
        assertThat(f.engine.pendingCount()).isZero();
        assertThat(f.engine.cancel(a.id())).isEqualTo(CancelResult.ALREADY_CANCELLED);
        f.advanceTo(t0 + 3_700_000);
        assertThat(f.sink.deliveries()).isEmpty();
    }

    @Test
    void cancellingAnIdCancelsItsReconsumedCopyToo() throws Exception {
        DelayedRecord r = f.record(t0 + 3_600_000, "copy");
        f.engine.schedule(r);
        assertThat(f.engine.cancel(r.id())).isEqualTo(CancelResult.CANCELLED);
        f.engine.schedule(r); // the internal topic delivers it again after a consumer restart
        f.advanceTo(t0 + 3_700_000);
        assertThat(f.sink.deliveries()).isEmpty();
        assertThat(f.engine.pendingCount()).isZero();
    }
}

package io.lanemq.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class QueueOffsetTrackerTest {

    @Test
    void nothingIsCommittableBeforeTheFirstFetch() {
        assertThat(new QueueOffsetTracker().committableOffset()).isEmpty();
    }

    @Test
    void committableOffsetStaysAtTheLowestUnfinishedMessageWhateverOrderAcksArriveIn() {
        QueueOffsetTracker tracker = new QueueOffsetTracker();
        for (long offset = 10; offset < 15; offset++) {
            tracker.fetched(offset);
        }
        assertThat(tracker.committableOffset()).hasValue(10);

        tracker.finished(12);
        tracker.finished(14);
        assertThat(tracker.committableOffset()).as("10 is still unacked").hasValue(10);

        tracker.finished(10);
        assertThat(tracker.committableOffset()).as("11 is the lowest unacked").hasValue(11);

        tracker.finished(11);
        assertThat(tracker.committableOffset()).as("13 is the lowest unacked").hasValue(13);
        assertThat(tracker.unfinishedCount()).isEqualTo(1);

        tracker.finished(13);
        assertThat(tracker.committableOffset()).as("all finished: one past the highest fetched").hasValue(15);
    }

    @Test
    void aRevokedTrackerIsNeverCommittedAgain() {
        QueueOffsetTracker tracker = new QueueOffsetTracker();
        tracker.fetched(3);
        tracker.revoke();
        tracker.finished(3);
        tracker.fetched(4);
        assertThat(tracker.committableOffset()).isEmpty();
        assertThat(tracker.isRevoked()).isTrue();
        assertThat(tracker.unfinishedCount()).isZero();
    }
}

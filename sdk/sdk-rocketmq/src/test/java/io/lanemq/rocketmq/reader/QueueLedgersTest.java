package io.lanemq.rocketmq.reader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lanemq.rocketmq.QueueRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;

class QueueLedgersTest {

    private static final QueueRef A0 = new QueueRef("a", "broker-1", 0);
    private static final QueueRef A1 = new QueueRef("a", "broker-1", 1);
    private static final QueueRef RETRY0 = new QueueRef("%RETRY%g", "broker-1", 0);

    /** A ledger whose committable offset the test sets. */
    private static final class FixedLedger implements OffsetLedger {
        volatile OptionalLong offset = OptionalLong.empty();
        volatile boolean revoked;

        @Override
        public OptionalLong committableOffset() {
            return revoked ? OptionalLong.empty() : offset;
        }

        @Override
        public void revoke() {
            revoked = true;
        }
    }

    /** The offset store: records each commit, or fails while told to. */
    private static final class FakeSink implements QueueLedgers.OffsetSink {
        final List<Map<QueueRef, Long>> commits = new ArrayList<>();
        boolean failing;

        @Override
        public void commit(Map<QueueRef, Long> offsets) {
            if (failing) {
                throw new IllegalStateException("broker unreachable");
            }
            commits.add(Map.copyOf(offsets));
        }
    }

    private final QueueLedgers<FixedLedger> ledgers = new QueueLedgers<>(queue -> new FixedLedger());
    private final FakeSink sink = new FakeSink();

    @Test
    void aCommitSendsEachQueuesCommittableOffsetOnceUntilItMoves() {
        ledgers.ledger(A0).offset = OptionalLong.of(10);
        ledgers.ledger(A1); // nothing committable yet

        assertThat(ledgers.commit(sink)).isEqualTo(Map.of(A0, 10L));
        assertThat(ledgers.commit(sink)).as("10 is committed already").isEmpty();

        ledgers.ledger(A0).offset = OptionalLong.of(12);
        ledgers.ledger(A1).offset = OptionalLong.of(3);
        assertThat(ledgers.commit(sink)).isEqualTo(Map.of(A0, 12L, A1, 3L));
        assertThat(sink.commits).as("an empty commit never reaches the store").hasSize(2);
    }

    @Test
    void aFailedCommitIsSentAgainByTheNextOne() {
        ledgers.ledger(A0).offset = OptionalLong.of(10);
        sink.failing = true;
        assertThatThrownBy(() -> ledgers.commit(sink)).hasMessageContaining("unreachable");

        sink.failing = false;
        assertThat(ledgers.commit(sink)).as("nothing was recorded as committed by the failed one")
                .isEqualTo(Map.of(A0, 10L));
    }

    @Test
    void aRebalanceRevokesAndForgetsOnlyTheTopicsQueuesTakenAway() {
        FixedLedger kept = ledgers.ledger(A0);
        FixedLedger lost = ledgers.ledger(A1);
        FixedLedger otherTopic = ledgers.ledger(RETRY0);
        lost.offset = OptionalLong.of(7);

        Map<QueueRef, FixedLedger> revoked = ledgers.revokeAllBut("a", Set.of(A0));

        assertThat(revoked).isEqualTo(Map.of(A1, lost));
        assertThat(lost.revoked).isTrue();
        assertThat(kept.revoked || otherTopic.revoked).as("a rebalance of topic a leaves the retry topic alone").isFalse();
        assertThat(ledgers.all()).containsExactlyInAnyOrder(kept, otherTopic);
        assertThat(ledgers.commit(sink)).as("a revoked queue is never committed again").isEmpty();
        assertThat(ledgers.ledger(A1)).as("a queue given back starts with a fresh ledger").isNotSameAs(lost);
    }

    @Test
    void anAdoptedLedgerIsCommittedAndForgottenOnlyIfStillTheQueues() {
        FixedLedger restored = new FixedLedger();
        restored.offset = OptionalLong.of(40);
        ledgers.adopt(A0, restored);
        assertThat(ledgers.commit(sink)).isEqualTo(Map.of(A0, 40L));

        assertThat(ledgers.forget(A0, new FixedLedger())).isFalse();
        assertThat(ledgers.forget(A0, restored)).isTrue();
        assertThat(restored.revoked).as("forgetting is the policy's hand-over, not a revoke").isFalse();
        assertThat(ledgers.find(A0)).isNull();
    }
}

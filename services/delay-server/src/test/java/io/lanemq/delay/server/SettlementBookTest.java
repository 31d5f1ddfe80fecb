package io.lanemq.delay.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.delay.DelayId;
import io.lanemq.rocketmq.QueueRef;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class SettlementBookTest {

    private final SettlementBook book = new SettlementBook();

    private QueueLedger ledger(int queueId) {
        return book.register(new QueueLedger(new QueueRef("LANEMQ_DELAY", "broker-a", queueId)));
    }

    /**
     * Random holds, copies, settlements and re-enqueue acknowledgements over four queues, checked
     * against a plain model after every step: the table's shifting deletes and resizes must never
     * lose or keep an offset.
     */
    @Test
    void agreesWithASimpleModelOverManyRandomOperations() {
        Random random = new Random(42);
        List<QueueLedger> ledgers = List.of(ledger(0), ledger(1), ledger(2), ledger(3));
        List<TreeMap<Long, DelayId>> model = new ArrayList<>();
        ledgers.forEach(l -> model.add(new TreeMap<>()));
        long[] next = new long[ledgers.size()];
        List<DelayId> live = new ArrayList<>();
        Set<DelayId> awaitingCopy = new HashSet<>(); // re-enqueued, acknowledged, no offset held
        for (int step = 0; step < 200_000; step++) {
            int q = random.nextInt(ledgers.size());
            int op = random.nextInt(10);
            if (op < 5 || live.isEmpty()) { // a new id, or a copy of a live one (a few ids share a due time)
                DelayId id = op == 0 && !live.isEmpty() ? live.get(random.nextInt(live.size()))
                        : new DelayId(random.nextInt(1_000), random.nextLong());
                long offset = next[q]++;
                boolean known = awaitingCopy.remove(id) | model.stream().anyMatch(m -> m.containsValue(id));
                assertThat(book.hold(ledgers.get(q), offset, id, step)).isEqualTo(known);
                model.get(q).put(offset, id);
                live.add(id);
            } else if (op < 9) {
                DelayId id = live.remove(random.nextInt(live.size()));
                book.settled(id);
                awaitingCopy.remove(id);
                model.forEach(m -> m.values().removeIf(id::equals));
                live.removeIf(id::equals);
            } else {
                TreeMap<Long, DelayId> m = model.get(q);
                if (!m.isEmpty()) {
                    Map.Entry<Long, DelayId> lowest = m.firstEntry();
                    book.leave(ledgers.get(q), lowest.getKey(), lowest.getValue());
                    m.remove(lowest.getKey());
                    if (model.stream().noneMatch(other -> other.containsValue(lowest.getValue()))) {
                        awaitingCopy.add(lowest.getValue());
                    }
                }
            }
            if (step % 1_000 == 0) {
                assertSameAs(ledgers, model, awaitingCopy);
            }
        }
        assertSameAs(ledgers, model, awaitingCopy);
        new ArrayList<>(live).forEach(book::settled);
        assertThat(book.size()).isZero();
        assertThat(book.estimatedBytes()).isLessThan(100_000); // shrank back
    }

    private void assertSameAs(List<QueueLedger> ledgers, List<TreeMap<Long, DelayId>> model, Set<DelayId> awaitingCopy) {
        int total = 0;
        for (int q = 0; q < ledgers.size(); q++) {
            TreeMap<Long, DelayId> m = model.get(q);
            total += m.size();
            assertThat(ledgers.get(q).heldCount()).isEqualTo(m.size());
            Map<Long, DelayId> held = new HashMap<>();
            ledgers.get(q).held(0, Integer.MAX_VALUE).forEach(h -> held.put(h.offset(), h.id()));
            assertThat(held).isEqualTo(m);
        }
        assertThat(book.size()).isEqualTo(total);
        assertThat(book.awaitingCopies()).isEqualTo(awaitingCopy.size());
    }

    @Test
    void aDroppedLedgerIsForgottenAndItsIdsAreNewAgain() {
        QueueLedger lost = ledger(0);
        QueueLedger kept = ledger(1);
        DelayId a = DelayId.random(1);
        DelayId b = DelayId.random(2);
        DelayId awaiting = DelayId.random(3);
        book.hold(lost, 0, a, 0);
        book.hold(kept, 0, b, 0);
        book.hold(lost, 1, awaiting, 0);
        book.leave(lost, 1, awaiting);
        book.drop(lost);
        assertThat(book.size()).isOne();
        assertThat(book.awaitingCopies()).isZero();
        assertThat(book.hold(lost, 2, a, 0)).isFalse(); // no longer registered: nothing held
        assertThat(lost.heldCount()).isOne(); // left as it was; nobody commits it any more

        QueueLedger back = ledger(0); // the queue comes back: a fresh ledger, its ids scheduled afresh
        assertThat(book.hold(back, 0, a, 0)).isFalse();
        assertThat(book.hold(back, 1, b, 0)).isTrue(); // still pending through the kept queue
        book.settled(b);
        assertThat(kept.heldCount()).isZero();
        assertThat(back.heldCount()).isOne();
    }

    @Test
    void aLateAcknowledgementForADroppedLedgerChangesNothing() {
        QueueLedger lost = ledger(0);
        DelayId id = DelayId.random(1);
        book.hold(lost, 0, id, 0);
        book.drop(lost);
        book.leave(lost, 0, id);
        assertThat(book.awaitingCopies()).isZero();
    }

    @Test
    void aMillionHeldOffsetsCostFewerThanFortyBytesEach() {
        List<QueueLedger> ledgers = new ArrayList<>();
        for (int q = 0; q < 8; q++) {
            ledgers.add(ledger(q));
        }
        int n = 1_000_000;
        for (int i = 0; i < n; i++) {
            book.hold(ledgers.get(i % 8), i / 8, new DelayId(1_000_000L + i, i * 0x9E3779B97F4A7C15L), 0);
        }
        long bytes = book.estimatedBytes();
        for (QueueLedger l : ledgers) {
            bytes += l.estimatedBytes();
        }
        assertThat(bytes / (double) n).isLessThan(40);
        assertThat(book.size()).isEqualTo(n);
    }
}

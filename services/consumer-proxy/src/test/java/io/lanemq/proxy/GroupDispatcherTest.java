package io.lanemq.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.proxy.protocol.Delivery;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The dispatcher's rules on a fake clock, without brokers or gRPC. */
class GroupDispatcherTest {
    private final AtomicLong clock = new AtomicLong(1_000_000_000L);
    private final AtomicLong ids = new AtomicLong();
    private final QueueOffsetTracker tracker = new QueueOffsetTracker();
    private final Recorder recorder = new Recorder();
    private final GroupDispatcher dispatcher = new GroupDispatcher("test", new DispatchPolicy(Duration.ofSeconds(10), 3,
            Duration.ofMillis(100), Duration.ofSeconds(1)), clock::get, ids::incrementAndGet, recorder);

    @Test
    void spreadsRoundRobinOverConsumersWithCreditsAndSkipsThoseWithout() {
        Sink a = new Sink();
        Sink b = new Sink();
        Sink c = new Sink();
        dispatcher.connect("a", 100, a);
        dispatcher.connect("b", 100, b);
        dispatcher.connect("c", 0, c);
        dispatcher.offer(messages(0, 10, null));

        assertThat(a.received).hasSize(5);
        assertThat(b.received).hasSize(5);
        assertThat(c.received).as("no credits, nothing pushed").isEmpty();
        assertThat(dispatcher.outstanding()).isEqualTo(10);
    }

    @Test
    void creditsBoundWhatIsPushedAndGrantsReleaseMore() {
        Sink a = new Sink();
        ConsumerSession session = dispatcher.connect("a", 2, a);
        dispatcher.offer(messages(0, 5, null));
        assertThat(a.received).hasSize(2);
        assertThat(dispatcher.held()).isEqualTo(5);

        dispatcher.grant(session, 2);
        assertThat(a.received).hasSize(4);
        assertThat(a.received).extracting(Delivery::getMessageId).containsExactly("m0", "m1", "m2", "m3");
    }

    @Test
    void withdrawnCreditsPushNothingMoreWhileWhatWasPushedStaysOutstandingAndCanBeAcked() {
        Sink a = new Sink();
        ConsumerSession session = dispatcher.connect("a", 5, a);
        dispatcher.offer(messages(0, 2, null));
        assertThat(a.received).hasSize(2);

        dispatcher.withdraw(session);
        dispatcher.offer(messages(2, 6, null));
        assertThat(a.received).as("three credits were unused; withdrawn, they push nothing").hasSize(2);
        assertThat(dispatcher.ack(session, a.received.stream().map(Delivery::getDeliveryId).toList(), 0))
                .as("what was pushed before is still the consumer's to ack").isEmpty();
        assertThat(a.received).hasSize(2);

        dispatcher.grant(session, 5);
        assertThat(a.received).extracting(Delivery::getMessageId).containsExactly("m0", "m1", "m2", "m3", "m4", "m5");
    }

    @Test
    void anAckBatchSettlesEveryIdReturnsItsCreditsAndNamesTheUnknownOnes() {
        Sink a = new Sink();
        ConsumerSession sa = dispatcher.connect("a", 3, a);
        dispatcher.offer(messages(0, 6, null));
        List<Long> ids = a.received.stream().map(Delivery::getDeliveryId).toList();

        assertThat(dispatcher.ack(sa, List.of(ids.get(0), 12_345L, ids.get(2)), 2)).containsExactly(12_345L);
        assertThat(recorder.acked).extracting(HeldMessage::offset).containsExactly(0L, 2L);
        assertThat(a.received).as("the two credits in the ack frame pushed two more").hasSize(5);
        assertThat(a.pushSizes).as("the first three when offered, the two the ack made room for together").containsExactly(3, 2);
        assertThat(dispatcher.outstanding()).isEqualTo(3);
        assertThat(dispatcher.held()).isEqualTo(4);
    }

    @Test
    void aTurnIsARunOfDeliveriesThatMayGoOnIntoTheNextDecision() {
        GroupDispatcher dispatcher = new GroupDispatcher("runs", new DispatchPolicy(Duration.ofSeconds(10), 3,
                Duration.ofMillis(100), Duration.ofSeconds(1), 3), clock::get, ids::incrementAndGet, recorder);
        Sink a = new Sink();
        Sink b = new Sink();
        dispatcher.connect("a", 100, a);
        dispatcher.connect("b", 100, b);
        dispatcher.offer(messages(0, 8, null));

        assertThat(a.received).extracting(Delivery::getMessageId).containsExactly("m0", "m1", "m2", "m6", "m7");
        assertThat(b.received).extracting(Delivery::getMessageId).containsExactly("m3", "m4", "m5");
        assertThat(a.pushSizes).as("one push per decision").containsExactly(5);

        dispatcher.offer(messages(8, 10, null));
        assertThat(a.received).as("a's run had one delivery left").hasSize(6);
        assertThat(b.received).as("then b's turn").hasSize(4);
    }

    @Test
    void newShardingKeysAreBoundOneByOneEvenWithRuns() {
        GroupDispatcher dispatcher = new GroupDispatcher("runs", new DispatchPolicy(Duration.ofSeconds(10), 3,
                Duration.ofMillis(100), Duration.ofSeconds(1), 8), clock::get, ids::incrementAndGet, recorder);
        Sink a = new Sink();
        Sink b = new Sink();
        Sink c = new Sink();
        dispatcher.connect("a", 100, a);
        dispatcher.connect("b", 100, b);
        dispatcher.connect("c", 100, c);
        List<HeldMessage> keyed = new ArrayList<>();
        for (int key = 0; key < 6; key++) {
            keyed.addAll(messages(key, key + 1, "key-" + key));
        }
        dispatcher.offer(keyed);

        assertThat(List.of(a.received.size(), b.received.size(), c.received.size())).containsExactly(2, 2, 2);
    }

    @Test
    void pushesAreMadeAfterTheLockIsReleased() {
        Sink a = new Sink();
        Sink b = new Sink();
        ConsumerSession sa = dispatcher.connect("a", 2, a);
        dispatcher.connect("b", 0, b);
        dispatcher.offer(messages(0, 8, null));
        dispatcher.ack(sa, List.of(a.received.get(0).getDeliveryId()), 1);
        dispatcher.nack(sa, a.received.get(1).getDeliveryId(), OptionalLong.of(0));
        dispatcher.grant(sa, 3);
        dispatcher.disconnect(sa);
        dispatcher.grant(dispatcher.connect("b2", 4, b), 0);

        assertThat(a.received.size() + b.received.size()).isGreaterThan(6);
        assertThat(a.pushedUnderLock + b.pushedUnderLock).isZero();
        assertThat(recorder.left).as("told once of the consumer that left").containsExactly("a");
    }

    @Test
    void anAckFinishesTheMessageOnlyForTheSessionThatHoldsIt() {
        Sink a = new Sink();
        Sink b = new Sink();
        ConsumerSession sa = dispatcher.connect("a", 1, a);
        ConsumerSession sb = dispatcher.connect("b", 0, b);
        dispatcher.offer(messages(0, 1, null));
        long id = a.received.get(0).getDeliveryId();

        assertThat(ack(sb, id)).isFalse();
        assertThat(ack(sa, 999)).isFalse();
        assertThat(ack(sa, id)).isTrue();
        assertThat(ack(sa, id)).as("twice").isFalse();
        assertThat(dispatcher.held()).isZero();
        assertThat(tracker.committableOffset()).hasValue(1);
        assertThat(recorder.acked).hasSize(1);
    }

    @Test
    void anOverdueDeliveryIsRedeliveredWithTheNextAttemptAndItsOldIdIsVoid() {
        Sink a = new Sink();
        Sink b = new Sink();
        ConsumerSession sa = dispatcher.connect("a", 1, a);
        dispatcher.offer(messages(0, 1, null));
        dispatcher.connect("b", 1, b);
        long first = a.received.get(0).getDeliveryId();

        clock.addAndGet(TimeUnit.SECONDS.toNanos(9));
        dispatcher.tick();
        assertThat(b.received).isEmpty();

        clock.addAndGet(TimeUnit.SECONDS.toNanos(1));
        dispatcher.tick();
        assertThat(b.received).hasSize(1);
        assertThat(b.received.get(0).getAttempt()).isEqualTo(2);
        assertThat(b.received.get(0).getMessageId()).isEqualTo("m0");
        assertThat(ack(sa, first)).isFalse();
        assertThat(recorder.redelivered).containsExactly(DispatchListener.FailedBy.TIMEOUT);
    }

    @Test
    void whatADisconnectedConsumerHeldGoesToTheOthers() {
        Sink a = new Sink();
        Sink b = new Sink();
        ConsumerSession sa = dispatcher.connect("a", 5, a);
        dispatcher.offer(messages(0, 5, null));
        ConsumerSession sb = dispatcher.connect("b", 10, b);
        assertThat(a.received).hasSize(5);

        dispatcher.disconnect(sa);
        assertThat(b.received).extracting(Delivery::getMessageId).containsExactlyInAnyOrder("m0", "m1", "m2", "m3", "m4");
        b.received.forEach(d -> ack(sb, d.getDeliveryId()));
        assertThat(tracker.committableOffset()).hasValue(5);
        assertThat(dispatcher.consumers()).isEqualTo(1);
    }

    @Test
    void aNackDelayTheListenerParksFreesTheMessagesPlaceAndIsNotRedeliveredFromMemory() {
        recorder.parksFromNanos = TimeUnit.SECONDS.toNanos(5);
        Sink a = new Sink();
        ConsumerSession sa = dispatcher.connect("a", 10, a);
        dispatcher.offer(messages(0, 3, null));

        dispatcher.nack(sa, a.received.get(0).getDeliveryId(), OptionalLong.of(60_000));
        dispatcher.nack(sa, a.received.get(1).getDeliveryId(), OptionalLong.of(1_000));
        assertThat(recorder.parkedDelays).containsExactly(TimeUnit.SECONDS.toNanos(60));
        assertThat(dispatcher.held()).as("m1 waits in memory, m2 is out; m0 is parked").isEqualTo(2);
        assertThat(recorder.redelivered).containsExactly(DispatchListener.FailedBy.NACK, DispatchListener.FailedBy.NACK);
        ack(sa, a.received.get(2).getDeliveryId());

        clock.addAndGet(TimeUnit.SECONDS.toNanos(1));
        dispatcher.tick();
        ack(sa, a.received.get(3).getDeliveryId());
        clock.addAndGet(TimeUnit.SECONDS.toNanos(60));
        dispatcher.tick();
        assertThat(a.received).extracting(Delivery::getMessageId).containsExactly("m0", "m1", "m2", "m1");
        assertThat(tracker.committableOffset()).as("the parked message no longer holds the offset").hasValue(3);
    }

    @Test
    void aNackIsRedeliveredAfterItsDelayAndWithoutOneAfterTheBackoff() {
        Sink a = new Sink();
        ConsumerSession sa = dispatcher.connect("a", 10, a);
        dispatcher.offer(messages(0, 2, null));

        dispatcher.nack(sa, a.received.get(0).getDeliveryId(), OptionalLong.of(500));
        dispatcher.nack(sa, a.received.get(1).getDeliveryId(), OptionalLong.empty());
        clock.addAndGet(TimeUnit.MILLISECONDS.toNanos(99));
        dispatcher.tick();
        assertThat(a.received).hasSize(2);

        clock.addAndGet(TimeUnit.MILLISECONDS.toNanos(1));
        dispatcher.tick();
        assertThat(a.received).hasSize(3);
        assertThat(a.received.get(2).getMessageId()).as("backoff of attempt 1: 100 ms").isEqualTo("m1");

        clock.addAndGet(TimeUnit.MILLISECONDS.toNanos(400));
        dispatcher.tick();
        assertThat(a.received).hasSize(4);
        assertThat(a.received.get(3).getMessageId()).isEqualTo("m0");
        assertThat(a.received.get(3).getAttempt()).isEqualTo(2);
        assertThat(tracker.committableOffset()).as("nothing acked").hasValue(0);
    }

    @Test
    void theLastFailedAttemptSendsTheMessageToTheDeadLetterTopic() {
        Sink a = new Sink();
        ConsumerSession sa = dispatcher.connect("a", 10, a);
        dispatcher.offer(messages(0, 1, null));
        for (int attempt = 1; attempt <= 3; attempt++) {
            Delivery delivery = a.received.get(attempt - 1);
            assertThat(delivery.getAttempt()).isEqualTo(attempt);
            dispatcher.nack(sa, delivery.getDeliveryId(), OptionalLong.of(0));
            dispatcher.tick();
        }
        assertThat(a.received).hasSize(3);
        assertThat(recorder.deadLettered).extracting(m -> m.template().getMessageId()).containsExactly("m0");
        assertThat(dispatcher.held()).isZero();
        assertThat(tracker.committableOffset()).as("released only once the DLQ send succeeded").hasValue(0);
    }

    @Test
    void aRejectedDeliveryGoesToTheDeadLetterTopicAtItsFirstAttemptAndFreesItsKey() {
        Sink a = new Sink();
        ConsumerSession sa = dispatcher.connect("a", 10, a);
        dispatcher.offer(messages(0, 2, "k"));
        assertThat(a.received).extracting(Delivery::getMessageId).as("one at a time per key").containsExactly("m0");

        assertThat(dispatcher.deadLetter(sa, a.received.get(0).getDeliveryId())).isEqualTo(GroupDispatcher.Settled.DONE);
        dispatcher.tick();

        assertThat(recorder.deadLettered).extracting(m -> m.template().getMessageId()).containsExactly("m0");
        assertThat(recorder.redelivered).as("no attempt is spent on it").isEmpty();
        assertThat(a.received).extracting(Delivery::getMessageId).as("the key moves on").containsExactly("m0", "m1");
        assertThat(dispatcher.deadLetter(sa, a.received.get(0).getDeliveryId()))
                .as("settled once").isEqualTo(GroupDispatcher.Settled.UNKNOWN_DELIVERY);
    }

    @Test
    void orderedMessagesGoOneAtATimePerKeyInOrderAndStickToTheirConsumer() {
        Sink a = new Sink();
        Sink b = new Sink();
        ConsumerSession sa = dispatcher.connect("a", 100, a);
        ConsumerSession sb = dispatcher.connect("b", 100, b);
        List<HeldMessage> batch = new ArrayList<>(messages(0, 3, "k1"));
        batch.addAll(messages(3, 6, "k2"));
        dispatcher.offer(batch);

        assertThat(a.received).extracting(Delivery::getMessageId).containsExactly("m0");
        assertThat(b.received).extracting(Delivery::getMessageId).containsExactly("m3");

        ack(sa, a.received.get(0).getDeliveryId());
        assertThat(a.received).extracting(Delivery::getMessageId).as("k1 stays with a").containsExactly("m0", "m1");
        assertThat(b.received).hasSize(1);

        // b dies holding m3: k2 moves to a, still in order.
        dispatcher.disconnect(sb);
        assertThat(a.received).extracting(Delivery::getMessageId).containsExactly("m0", "m1", "m3");
        ack(sa, a.received.get(2).getDeliveryId());
        ack(sa, a.received.get(1).getDeliveryId());
        assertThat(a.received).extracting(Delivery::getMessageId).containsExactly("m0", "m1", "m3", "m4", "m2");
    }

    @Test
    void aStickyConsumerWithoutCreditsHoldsItsKeyBack() {
        Sink a = new Sink();
        Sink b = new Sink();
        ConsumerSession sa = dispatcher.connect("a", 1, a);
        dispatcher.offer(messages(0, 2, "k"));
        dispatcher.connect("b", 10, b);
        ack(sa, a.received.get(0).getDeliveryId());
        assertThat(b.received).as("k belongs to a while a lives").isEmpty();
        dispatcher.grant(sa, 1);
        assertThat(a.received).extracting(Delivery::getMessageId).containsExactly("m0", "m1");
    }

    @Test
    void drainingStopsDeliveriesDropsWaitingMessagesAndStillTakesAcks() {
        Sink a = new Sink();
        ConsumerSession sa = dispatcher.connect("a", 2, a);
        dispatcher.offer(messages(0, 5, null));
        dispatcher.drain();
        dispatcher.grant(sa, 10);
        assertThat(a.received).hasSize(2);
        assertThat(dispatcher.held()).isEqualTo(2);

        ack(sa, a.received.get(1).getDeliveryId());
        assertThat(tracker.committableOffset()).as("m0 is unacked").hasValue(0);
        ack(sa, a.received.get(0).getDeliveryId());
        assertThat(tracker.committableOffset()).as("m2..m4 were never delivered and stay uncommitted")
                .hasValue(2);
        assertThat(dispatcher.held()).isZero();
    }

    @Test
    void theLeastServedConsumerWithCreditsGoesFirst() {
        Sink a = new Sink();
        Sink b = new Sink();
        dispatcher.connect("a", 100, a);
        ConsumerSession sb = dispatcher.connect("b", 0, b);
        dispatcher.offer(messages(0, 10, null));
        assertThat(a.received).as("b had no credits").hasSize(10);

        dispatcher.grant(sb, 100);
        dispatcher.offer(messages(10, 20, null));
        assertThat(b.received).as("b was 10 behind: round-robin would have given it 5").hasSize(10);
        assertThat(a.received).hasSize(10);

        Sink c = new Sink();
        dispatcher.connect("c", 100, c);
        dispatcher.offer(messages(20, 26, null));
        assertThat(List.of(a.received.size(), b.received.size(), c.received.size()))
                .as("a newcomer starts level with the least served").containsExactly(12, 12, 2);
    }

    @Test
    void aConsumerFarBehindCatchesUpOnlyByTheBoundThenTakesTurns() {
        Sink a = new Sink();
        Sink b = new Sink();
        dispatcher.connect("a", 10_000, a);
        ConsumerSession sb = dispatcher.connect("b", 0, b);
        dispatcher.offer(messages(0, 600, null));
        dispatcher.grant(sb, 10_000);
        dispatcher.offer(messages(600, 1200, null));

        long caughtUp = FairTurns.CATCH_UP;
        assertThat(b.received).as("%d turns in a row, then one each", caughtUp)
                .hasSize((int) (caughtUp + (600 - caughtUp) / 2));
        assertThat(b.received.subList(0, (int) caughtUp)).extracting(Delivery::getMessageId)
                .as("the first of the second offer, in a row").startsWith("m600", "m601", "m602");
    }

    @Test
    void manyConsumersGetEqualSharesWhenTheyAckAtTheSamePace() {
        List<Sink> sinks = new ArrayList<>();
        Map<Sink, ConsumerSession> sessions = new HashMap<>();
        for (int i = 0; i < 32; i++) {
            Sink sink = new Sink();
            sinks.add(sink);
            sessions.put(sink, dispatcher.connect("c" + i, 4, sink));
        }
        for (int round = 0; round < 100; round++) {
            dispatcher.offer(messages(round * 40, round * 40 + 40, null));
            for (Sink sink : sinks) {
                for (Delivery d : List.copyOf(sink.pending)) {
                    ack(sessions.get(sink), d.getDeliveryId());
                    dispatcher.grant(sessions.get(sink), 1);
                    sink.pending.remove(d);
                }
            }
        }
        IntStream counts = sinks.stream().mapToInt(s -> s.received.size());
        assertThat(counts.max().getAsInt() - sinks.stream().mapToInt(s -> s.received.size()).min().getAsInt())
                .isLessThanOrEqualTo(1);
    }

    @Test
    void eachMessageGoesToTheMostSpecificLaneOnItsPathThatHasAConsumer() {
        Sink base = new Sink();
        Sink laneA = new Sink();
        Sink laneAX = new Sink();
        dispatcher.connect("base", LaneChoice.BASE, 100, base);
        dispatcher.connect("a", "A", 100, laneA);
        dispatcher.connect("ax", "A.X", 100, laneAX);
        dispatcher.offer(List.of(laneMessage(0, "A.X"), laneMessage(1, "A.Y"), laneMessage(2, "A"),
                laneMessage(3, "B"), laneMessage(4, null)));

        assertThat(laneAX.received).extracting(Delivery::getMessageId).containsExactly("m0");
        assertThat(laneA.received).extracting(Delivery::getMessageId).containsExactly("m1", "m2");
        assertThat(base.received).extracting(Delivery::getMessageId).containsExactly("m3", "m4");
    }

    @Test
    void aLaneWhoseConsumerFailsKeepsItsMessageWhileConnectedAndFallsBackOnceItLeaves() {
        Sink base = new Sink();
        Sink laneA = new Sink();
        dispatcher.connect("base", LaneChoice.BASE, 100, base);
        ConsumerSession sa = dispatcher.connect("a", "A", 100, laneA);
        dispatcher.offer(List.of(laneMessage(0, "A")));

        dispatcher.nack(sa, laneA.received.get(0).getDeliveryId(), OptionalLong.of(0));
        assertThat(laneA.received).as("failing but connected: redelivered to the lane").hasSize(2);
        assertThat(base.received).isEmpty();

        dispatcher.disconnect(sa);
        assertThat(base.received).as("the lane's last consumer left: the base takes it")
                .extracting(Delivery::getMessageId, Delivery::getAttempt).containsExactly(org.assertj.core.groups.Tuple.tuple("m0", 3));
        assertThat(recorder.acked).isEmpty();
    }

    @Test
    void aLaneWithoutCreditsHoldsBackOnlyItsOwnMessages() {
        Sink base = new Sink();
        Sink laneA = new Sink();
        dispatcher.connect("base", LaneChoice.BASE, 100, base);
        ConsumerSession sa = dispatcher.connect("a", "A", 1, laneA);
        dispatcher.offer(List.of(laneMessage(0, "A"), laneMessage(1, "A"), laneMessage(2, null), laneMessage(3, "A"),
                laneMessage(4, null)));

        assertThat(laneA.received).extracting(Delivery::getMessageId).containsExactly("m0");
        assertThat(base.received).as("behind lane A's waiting messages, the base's go on")
                .extracting(Delivery::getMessageId).containsExactly("m2", "m4");
        dispatcher.grant(sa, 5);
        assertThat(laneA.received).extracting(Delivery::getMessageId).containsExactly("m0", "m1", "m3");
    }

    @Test
    void aLanesConsumersShareItsMessagesFairlyAndNeverTakeTheBasesMessages() {
        Sink a1 = new Sink();
        Sink a2 = new Sink();
        dispatcher.connect("a1", "A", 100, a1);
        dispatcher.connect("a2", "A", 100, a2);
        List<HeldMessage> messages = new ArrayList<>();
        IntStream.range(0, 12).forEach(i -> messages.add(laneMessage(i, "A")));
        messages.add(laneMessage(12, null));
        dispatcher.offer(messages);

        assertThat(a1.received).hasSize(6);
        assertThat(a2.received).hasSize(6);
        assertThat(dispatcher.held()).as("the base message waits for a base consumer").isEqualTo(13);
        Sink base = new Sink();
        dispatcher.connect("base", LaneChoice.BASE, 100, base);
        assertThat(base.received).extracting(Delivery::getMessageId).containsExactly("m12");
    }

    @Test
    void anOrderedKeyOfALaneGoesToTheLaneAndInOrder() {
        Sink base = new Sink();
        Sink laneA = new Sink();
        dispatcher.connect("base", LaneChoice.BASE, 100, base);
        ConsumerSession sa = dispatcher.connect("a", "A", 100, laneA);
        tracker.fetched(0);
        tracker.fetched(1);
        dispatcher.offer(List.of(laneMessage(0, "A", "k"), laneMessage(1, "A", "k")));

        assertThat(laneA.received).extracting(Delivery::getMessageId).containsExactly("m0");
        assertThat(ack(sa, laneA.received.get(0).getDeliveryId())).isTrue();
        assertThat(laneA.received).extracting(Delivery::getMessageId).containsExactly("m0", "m1");
        assertThat(base.received).isEmpty();
    }

    private HeldMessage laneMessage(int offset, String lane) {
        return laneMessage(offset, lane, null);
    }

    private HeldMessage laneMessage(int offset, String lane, String key) {
        tracker.fetched(offset);
        Delivery.Builder template = Delivery.newBuilder().setMessageId("m" + offset);
        if (lane != null) {
            template.putProperties(io.lanemq.api.MessageContext.LANE_PROPERTY, lane);
        }
        return new HeldMessage(template.build(), tracker, offset, key, null, 0);
    }

    private List<HeldMessage> messages(int from, int to, String key) {
        List<HeldMessage> list = new ArrayList<>();
        for (int i = from; i < to; i++) {
            tracker.fetched(i);
            list.add(new HeldMessage(Delivery.newBuilder().setMessageId("m" + i).build(), tracker, i, key, null, 0));
        }
        return list;
    }

    /** Acks one delivery; true when it was outstanding on the session. */
    private boolean ack(ConsumerSession session, long deliveryId) {
        return dispatcher.ack(session, List.of(deliveryId), 0).isEmpty();
    }

    private final class Sink implements ConsumerSession.DeliverySink {
        final List<Delivery> received = new ArrayList<>();
        final List<Delivery> pending = new ArrayList<>();
        int pushedUnderLock;

        final List<Integer> pushSizes = new ArrayList<>();

        @Override
        public void push(List<Delivery> deliveries) {
            if (Thread.holdsLock(dispatcher)) {
                pushedUnderLock++;
            }
            pushSizes.add(deliveries.size());
            received.addAll(deliveries);
            pending.addAll(deliveries);
        }
    }

    /** Records outcomes; a dead-lettered message stays unfinished, as it would until its DLQ send succeeds. */
    private static final class Recorder implements DispatchListener {
        final List<HeldMessage> acked = new ArrayList<>();
        final List<Long> parkedDelays = new ArrayList<>();
        /** Delays from this long are taken over, as GroupRuntime does with its broker-retry-from. */
        long parksFromNanos = Long.MAX_VALUE;
        final List<FailedBy> redelivered = new ArrayList<>();
        final List<HeldMessage> deadLettered = new ArrayList<>();
        final List<String> left = new ArrayList<>();

        @Override
        public void delivered(ConsumerSession session, HeldMessage message) {
        }

        @Override
        public void left(ConsumerSession session) {
            left.add(session.consumerId());
        }

        @Override
        public void acked(HeldMessage message) {
            acked.add(message);
        }

        @Override
        public void willRedeliver(HeldMessage message, FailedBy reason) {
            redelivered.add(reason);
        }

        @Override
        public void deadLetter(HeldMessage message, FailedBy reason) {
            deadLettered.add(message);
        }

        @Override
        public boolean parked(HeldMessage message, long delayNanos) {
            if (delayNanos < parksFromNanos) {
                return false;
            }
            parkedDelays.add(delayNanos);
            message.finish();
            return true;
        }
    }
}

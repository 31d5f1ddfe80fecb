package io.lanemq.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.proxy.protocol.Delivery;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Per-key order alone: consumers are chosen by a scripted supplier, deliveries only recorded. */
class KeyedBacklogTest {
    private final QueueOffsetTracker tracker = new QueueOffsetTracker();
    private final KeyedBacklog backlog = new KeyedBacklog();
    private final List<String> sent = new ArrayList<>();
    private final LaneChoice lanes = new LaneChoice();
    private final ConsumerSession a = new ConsumerSession("a", LaneChoice.BASE, 100, deliveries -> { });
    private final ConsumerSession b = new ConsumerSession("b", LaneChoice.BASE, 100, deliveries -> { });

    KeyedBacklogTest() {
        lanes.join(LaneChoice.BASE);
    }

    @Test
    void aKeyHasOneMessageOutAtATimeAndMovesOnInOrderWhenItIsReleased() {
        HeldMessage first = offer("k", 0);
        offer("k", 1);
        offer("k", 2);
        deliverHeads(a);
        assertThat(sent).containsExactly("m0->a");

        deliverHeads(a);
        assertThat(sent).as("m0 is still out").containsExactly("m0->a");

        backlog.release(first);
        deliverHeads(b);
        assertThat(sent).as("the key stays with a").containsExactly("m0->a", "m1->a");
    }

    @Test
    void newKeysAreBoundOneByOneAndStopWhenNobodyHasACredit() {
        offer("k1", 0);
        offer("k2", 1);
        offer("k3", 2);
        List<ConsumerSession> script = new ArrayList<>(List.of(a, b));
        backlog.deliverHeads(lanes, lane -> script.isEmpty() ? null : script.remove(0), this::record);

        assertThat(sent).as("k3 waits for a consumer with a credit").containsExactly("m0->a", "m1->b");
        deliverHeads(b);
        assertThat(sent).containsExactly("m0->a", "m1->b", "m2->b");
    }

    @Test
    void aBoundConsumerWithoutCreditsHoldsItsKeyBackWhileOtherKeysGoOn() {
        HeldMessage first = offer("k1", 0);
        offer("k1", 1);
        deliverHeads(a);
        backlog.release(first);
        a.credits = 0;
        offer("k2", 2);
        deliverHeads(b);

        assertThat(sent).as("k1 waits for a; k2, behind it, is not held up").containsExactly("m0->a", "m2->b");
        a.credits = 1;
        deliverHeads(b);
        assertThat(sent).containsExactly("m0->a", "m2->b", "m1->a");
    }

    @Test
    void aRequeuedMessageGoesOutAgainBeforeTheRestOfItsKey() {
        HeldMessage first = offer("k", 0);
        offer("k", 1);
        deliverHeads(a);

        backlog.requeue(first);
        deliverHeads(a);
        assertThat(sent).containsExactly("m0->a", "m0->a");
    }

    @Test
    void aDepartedConsumersKeysGoToTheNextTurnAndIdleKeysAreForgotten() {
        HeldMessage k1 = offer("k1", 0);
        offer("k1", 1);
        HeldMessage k2 = offer("k2", 2);
        deliverHeads(a);
        backlog.release(k2);
        assertThat(backlog.keys()).as("k2 is idle but a still holds it").isEqualTo(2);

        backlog.requeue(k1);
        backlog.unbind(a);
        assertThat(backlog.keys()).as("idle k2 is forgotten").isEqualTo(1);
        deliverHeads(b);
        assertThat(sent).containsExactly("m0->a", "m2->a", "m0->b");
    }

    @Test
    void anUnboundKeyIsForgottenWhenItsLastMessageIsReleased() {
        HeldMessage only = offer("k", 0);
        deliverHeads(a);
        backlog.unbind(a);
        assertThat(backlog.keys()).as("m0 is still out").isEqualTo(1);

        backlog.release(only);
        assertThat(backlog.keys()).isZero();
    }

    @Test
    void droppingRemovesTheSelectedWaitingMessagesAndFreesKeysWhosePendingRetryWasDropped() {
        HeldMessage retried = offer("k1", 0);
        offer("k1", 1);
        offer("k2", 2);
        offer("k2", 3);
        deliverHeads(a);

        int dropped = backlog.drop(message -> message.offset() == 3, Set.of(retried));
        assertThat(dropped).as("m3 waited; the dropped retry m0 is counted by its schedule").isEqualTo(1);
        deliverHeads(a);
        assertThat(sent).as("k1 moves on to m1").containsExactly("m0->a", "m2->a", "m1->a");
    }

    @Test
    void aKeyWhoseLaneGetsAConsumerIsBoundAfreshOnceNothingOfItIsOut() {
        ConsumerSession laneA = new ConsumerSession("x", "A", 100, deliveries -> { });
        HeldMessage first = offer("k", 0, "A");
        offer("k", 1, "A");
        deliverHeads(a);
        assertThat(sent).as("no consumer of A yet: the base takes it").containsExactly("m0->a");

        lanes.join("A");
        deliverHeads(laneA);
        assertThat(sent).as("m0 is still out with the base consumer: the key waits").containsExactly("m0->a");
        backlog.release(first);
        deliverHeads(laneA);
        assertThat(sent).as("lane A now has a consumer: the key moves to it").containsExactly("m0->a", "m1->x");
    }

    @Test
    void aLaneWithoutCreditsHoldsOnlyItsOwnNewKeysBack() {
        ConsumerSession laneA = new ConsumerSession("x", "A", 0, deliveries -> { });
        lanes.join("A");
        offer("k1", 0, "A");
        offer("k2", 1);
        backlog.deliverHeads(lanes, lane -> lane.equals("A") ? (laneA.credits > 0 ? laneA : null) : a, this::record);

        assertThat(sent).as("k1 waits for lane A's credits; the base's k2 goes on").containsExactly("m1->a");
    }

    private HeldMessage offer(String key, int offset) {
        return offer(key, offset, null);
    }

    private HeldMessage offer(String key, int offset, String lane) {
        tracker.fetched(offset);
        Delivery.Builder template = Delivery.newBuilder().setMessageId("m" + offset);
        if (lane != null) {
            template.putProperties(io.lanemq.api.MessageContext.LANE_PROPERTY, lane);
        }
        HeldMessage message = new HeldMessage(template.build(), tracker, offset, key, null, 0);
        backlog.offer(message);
        return message;
    }

    /** Delivers ready heads, binding new keys to {@code next}. */
    private void deliverHeads(ConsumerSession next) {
        backlog.deliverHeads(lanes, lane -> next.credits > 0 ? next : null, this::record);
    }

    private void record(HeldMessage message, ConsumerSession session) {
        session.credits--;
        sent.add(message.template().getMessageId() + "->" + session.consumerId());
    }
}

package io.lanemq.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The choice of the next consumer alone: credits and served counts set by hand, no messages. */
class FairTurnsTest {
    private final FairTurns turns = new FairTurns(1);

    @Test
    void consumersWithEqualServiceTakeTurnsRoundRobinAndThoseWithoutCreditsAreSkipped() {
        ConsumerSession a = join(turns, "a", 10);
        ConsumerSession b = join(turns, "b", 0);
        ConsumerSession c = join(turns, "c", 10);

        assertThat(serve(turns, 4)).as("b has no credits").containsExactly(a, c, a, c);
        assertThat(b.served).isZero();
    }

    @Test
    void nobodyIsChosenWhenNoConsumerHasACredit() {
        join(turns, "a", 0);
        join(turns, "b", 0);

        assertThat(turns.next()).isNull();
        assertThat(turns.nextForNewKey()).isNull();
    }

    @Test
    void theLeastServedGoesFirstAndANewcomerStartsLevelWithIt() {
        ConsumerSession a = join(turns, "a", 100);
        ConsumerSession b = join(turns, "b", 100);
        a.served = 10;
        b.served = 4;
        assertThat(serve(turns, 6)).as("b is 6 behind").containsOnly(b);

        ConsumerSession c = join(turns, "c", 100);
        assertThat(c.served).as("level with the least served, not from zero").isEqualTo(10);
        assertThat(serve(turns, 3)).containsExactlyInAnyOrder(a, b, c);
    }

    @Test
    void aConsumerFarBehindCountsAtMostTheCatchUpBoundBehind() {
        ConsumerSession a = join(turns, "a", 10_000);
        ConsumerSession b = join(turns, "b", 10_000);
        a.served = 1_000;

        List<ConsumerSession> chosen = serve(turns, (int) FairTurns.CATCH_UP + 2);
        assertThat(chosen.subList(0, (int) FairTurns.CATCH_UP)).as("b catches up by the bound, in a row").containsOnly(b);
        assertThat(chosen.subList((int) FairTurns.CATCH_UP, chosen.size())).as("then turns alternate").containsExactly(a, b);
    }

    @Test
    void aRunKeepsItsConsumerAcrossCallsUntilItIsUsedUpOrItsCreditsAre() {
        FairTurns runs = new FairTurns(3);
        ConsumerSession a = join(runs, "a", 4);
        ConsumerSession b = join(runs, "b", 100);

        assertThat(serve(runs, 2)).containsExactly(a, a);
        assertThat(serve(runs, 2)).as("a's run of three goes on into the next decision").containsExactly(a, b);
        assertThat(serve(runs, 3)).containsExactly(b, b, a);
        assertThat(a.credits).isZero();
        assertThat(serve(runs, 2)).as("a's run ends with its credits").containsExactly(b, b);
    }

    @Test
    void bindingANewKeyIsATurnOfOneSoTheNextMessageStartsANewTurn() {
        FairTurns runs = new FairTurns(8);
        ConsumerSession a = join(runs, "a", 100);
        ConsumerSession b = join(runs, "b", 100);

        assertThat(runs.nextForNewKey()).isSameAs(a);
        deliver(runs, a);
        assertThat(runs.next()).as("a run of eight would have kept a").isSameAs(b);
    }

    @Test
    void aConsumerLeavingKeepsTheRoundRobinOrderOfTheRest() {
        ConsumerSession a = join(turns, "a", 10);
        ConsumerSession b = join(turns, "b", 10);
        ConsumerSession c = join(turns, "c", 10);
        ConsumerSession d = join(turns, "d", 10);
        assertThat(serve(turns, 6)).containsExactly(a, b, c, d, a, b);

        turns.leave(a);
        assertThat(serve(turns, 3)).as("c was next before a left, and c and d are tied").containsExactly(c, d, b);
        assertThat(turns.sessions()).containsExactly(b, c, d);
    }

    private static ConsumerSession join(FairTurns turns, String id, long credits) {
        ConsumerSession session = new ConsumerSession(id, LaneChoice.BASE, credits, deliveries -> { });
        turns.join(session);
        return session;
    }

    /** Takes {@code count} unordered turns, delivering one message at each as the dispatcher would. */
    private static List<ConsumerSession> serve(FairTurns turns, int count) {
        List<ConsumerSession> chosen = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ConsumerSession session = turns.next();
            deliver(turns, session);
            chosen.add(session);
        }
        return chosen;
    }

    private static void deliver(FairTurns turns, ConsumerSession session) {
        session.credits--;
        turns.served(session);
    }
}

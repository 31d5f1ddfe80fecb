package io.lanemq.support.attach;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.support.Backoff;
import io.lanemq.support.Ticker;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class AttachLoopTest {
    private static final AttachPolicy FAST = new AttachPolicy(Duration.ofMillis(200),
            new Backoff(Duration.ofMillis(10), Duration.ofMillis(20), () -> 1.0),
            new Backoff(Duration.ofHours(1), Duration.ofHours(1), () -> 1.0), 1_000, Optional.empty());

    /** Every outcome, in order: "attached", "unreachable" or "refused". */
    private static final class Recorded implements AttachLoop.Outcomes {
        final List<String> outcomes = new CopyOnWriteArrayList<>();
        final CountDownLatch attached = new CountDownLatch(1);

        @Override
        public void attached() {
            outcomes.add("attached");
            attached.countDown();
        }

        @Override
        public void failed(Exception failure, boolean curable) {
            outcomes.add(curable ? "unreachable" : "refused");
        }
    }

    private static AttachLoop start(AttachLoop.Attempt attempt, Recorded outcomes) {
        return AttachLoop.start("attach-loop-test", "test part on cluster-b", FAST, new AttemptBudget(FAST, Ticker.system()),
                failure -> !(failure instanceof IllegalArgumentException), attempt, outcomes, Ticker.system());
    }

    @Test
    void aClusterThatFailsIsTriedAgainAfterTheBackOffUntilItAttachesAndEveryOutcomeIsCounted() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        Recorded outcomes = new Recorded();
        try (AttachLoop loop = start(() -> {
            if (attempts.incrementAndGet() < 3) {
                throw new IllegalStateException("connect to null failed");
            }
        }, outcomes)) {
            assertThat(outcomes.attached.await(5, TimeUnit.SECONDS)).as("attached on the third attempt").isTrue();
            assertThat(outcomes.outcomes).containsExactly("unreachable", "unreachable", "attached");
            assertThat(loop.attached()).isTrue();
            assertThat(loop.reason()).as("no reason once attached").isEmpty();
        }
    }

    @Test
    void theFirstAnswerIsAwaitedAtMostTheGivenTimeAndTheReasonSaysThatNothingAnsweredYet() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        Recorded outcomes = new Recorded();
        try (AttachLoop loop = start(release::await, outcomes)) {
            long began = System.nanoTime();
            assertThat(loop.awaitFirstAnswer(Duration.ofMillis(200))).as("a silent cluster does not attach").isFalse();
            assertThat(System.nanoTime() - began).as("waited the given time, no longer")
                    .isBetween(TimeUnit.MILLISECONDS.toNanos(200), TimeUnit.SECONDS.toNanos(2));
            assertThat(loop.reason()).hasValueSatisfying(reason -> assertThat(reason)
                    .startsWith("not attached since ").contains("its first attempt has not answered yet"));
            release.countDown();
            assertThat(loop.awaitFirstAnswer(Duration.ofSeconds(5))).as("attached once the attempt returns").isTrue();
        }
    }

    @Test
    void aFailureWaitingWillNotCureIsRetriedOnTheSlowBackOffAndItsReasonSaysRefused() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        Recorded outcomes = new Recorded();
        try (AttachLoop loop = start(() -> {
            attempts.incrementAndGet();
            throw new IllegalArgumentException("ACL refused the access key");
        }, outcomes)) {
            assertThat(loop.awaitFirstAnswer(Duration.ofSeconds(5))).isFalse();
            assertThat(loop.reason()).hasValueSatisfying(reason -> assertThat(reason).contains("refused: ACL refused"));
            assertThat(loop.awaitFirstAnswer(Duration.ofMillis(300))).isFalse();
            assertThat(attempts.get()).as("one attempt: the next is an hour away").isEqualTo(1);
            assertThat(outcomes.outcomes).containsExactly("refused");
        }
    }

    @Test
    void closingStopsTheRetries() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        AttachLoop loop = start(() -> {
            attempts.incrementAndGet();
            throw new IllegalStateException("no answer");
        }, new Recorded());
        loop.awaitFirstAnswer(Duration.ofSeconds(5));
        loop.close();
        int atClose = attempts.get();
        assertThat(new CountDownLatch(1).await(200, TimeUnit.MILLISECONDS)).isFalse();
        assertThat(attempts.get()).as("attempts after the close (retries were due every 10-20 ms)").isLessThanOrEqualTo(atClose + 1);
    }
}

package io.lanemq.core.internal.produce;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.api.Message;
import io.lanemq.api.SendFailedException;
import io.lanemq.api.spi.BoundSendResult;
import io.lanemq.config.ClusterConfig;
import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.ProducerConfig;
import io.lanemq.config.TopicRoute;
import io.lanemq.core.internal.routing.ClusterChooser;
import io.lanemq.core.internal.routing.RouteLease;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.support.FakeClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * When an unanswered attempt is given up on, decided on a fake clock: the evidence rule of {@link ClusterPulse}
 * (another cluster answered quickly since the attempt started) without a broker, a timer or a sleep.
 */
class SendAttemptsClockTest {
    private static final Duration SEND_TIMEOUT = Duration.ofSeconds(3);
    private static final Duration FAILOVER_AFTER = Duration.ofSeconds(1);
    /** A quarter of failoverAfter: an answer this fast proves its cluster well. */
    private static final Duration QUICK = FAILOVER_AFTER.dividedBy(4);

    private final FakeClock clock = new FakeClock();
    private final ClusterPulse pulse = new ClusterPulse(clock);
    private final LogicTopicConfig topic = new LogicTopicConfig("orders",
            List.of(new TopicRoute("cluster-a", "orders", 100), new TopicRoute("cluster-b", "orders_b", 0)), Map.of());

    @Test
    void anAttemptOnAClusterThatWentQuietWhileAnotherAnswersIsGivenUpOnAtAQuarterOfFailoverAfter() throws Exception {
        pulse.answered("cluster-a", Duration.ofMillis(5).toNanos(), QUICK.toNanos());
        clock.advance(Duration.ofMillis(1));
        SendAttempts attempts = attempts();
        Attempt stalled = attempts.next();
        clock.advance(Duration.ofMillis(100));
        pulse.answered("cluster-b", Duration.ofMillis(5).toNanos(), QUICK.toNanos());

        clock.advance(Duration.ofMillis(149));
        assertThat(attempts.overdue(stalled, clock.read())).as("a millisecond before a quarter of failoverAfter").isFalse();
        clock.advance(Duration.ofMillis(1));
        assertThat(attempts.overdue(stalled, clock.read()))
                .as("cluster-b answered quickly while cluster-a said nothing to anyone: its connection is stalled").isTrue();
    }

    @Test
    void aClusterWhoseRecentAnswersWereSlowIsWaitedForLongerBeforeItCountsAsStalled() throws Exception {
        for (int i = 0; i < 20; i++) { // a busy host: cluster-a answers in 50-300 ms
            pulse.answered("cluster-a", Duration.ofMillis(i % 2 == 0 ? 50 : 300).toNanos(), QUICK.toNanos());
        }
        clock.advance(Duration.ofMillis(1));
        SendAttempts attempts = attempts();
        Attempt slow = attempts.next();
        clock.advance(Duration.ofMillis(10));
        pulse.answered("cluster-b", Duration.ofMillis(5).toNanos(), QUICK.toNanos());

        clock.advance(Duration.ofMillis(390));
        assertThat(attempts.overdue(slow, clock.read()))
                .as("400 ms of quiet is cluster-a's usual pace now, not a stall").isFalse();
        clock.advance(Duration.ofMillis(600));
        assertThat(attempts.overdue(slow, clock.read())).as("at failoverAfter it is given up on all the same").isTrue();
    }

    @Test
    void anAttemptOnAClusterThatNeverAnsweredIsGivenUpOnOnlyAtHalfTheSendTimeout() throws Exception {
        SendAttempts attempts = attempts();
        Attempt cold = attempts.next();
        clock.advance(Duration.ofMillis(100));
        pulse.answered("cluster-b", Duration.ofMillis(5).toNanos(), QUICK.toNanos());

        clock.advance(SEND_TIMEOUT.dividedBy(2).minusMillis(101));
        assertThat(attempts.overdue(cold, clock.read())).as("cold, not silent: its first answer may be slow").isFalse();
        clock.advance(Duration.ofMillis(1));
        assertThat(attempts.overdue(cold, clock.read())).as("its last chance is half the send timeout").isTrue();
    }

    @Test
    void anAttemptWhoseClusterKeepsAnsweringOthersIsGivenUpOnAtFailoverAfter() throws Exception {
        pulse.answered("cluster-a", Duration.ofMillis(5).toNanos(), QUICK.toNanos());
        clock.advance(Duration.ofMillis(1));
        SendAttempts attempts = attempts();
        Attempt slow = attempts.next();
        clock.advance(Duration.ofMillis(100));
        pulse.answered("cluster-b", Duration.ofMillis(5).toNanos(), QUICK.toNanos());
        pulse.answered("cluster-a", Duration.ofMillis(400).toNanos(), QUICK.toNanos()); // another send, answered slowly

        clock.advance(FAILOVER_AFTER.minusMillis(101));
        assertThat(attempts.overdue(slow, clock.read())).as("a millisecond before failoverAfter").isFalse();
        clock.advance(Duration.ofMillis(1));
        assertThat(attempts.overdue(slow, clock.read()))
                .as("cluster-b answered quickly while this attempt waited a whole failoverAfter").isTrue();
    }

    @Test
    void withoutEvidenceAgainstItsClusterAnAttemptIsWaitedForUntilHalfTheSendTimeout() throws Exception {
        pulse.answered("cluster-b", Duration.ofMillis(5).toNanos(), QUICK.toNanos());
        clock.advance(Duration.ofMillis(1));
        SendAttempts attempts = attempts();
        Attempt slow = attempts.next();

        clock.advance(FAILOVER_AFTER);
        assertThat(attempts.overdue(slow, clock.read()))
                .as("the quick answer came before the attempt started: the whole host may be stalled now").isFalse();
        clock.advance(SEND_TIMEOUT.dividedBy(2).minus(FAILOVER_AFTER));
        assertThat(attempts.overdue(slow, clock.read())).as("its last chance is half the send timeout").isTrue();
    }

    @Test
    void theLatencyFedBackToTheChooserIsMeasuredOnTheInjectedClock() throws Exception {
        RecordingLease lease = new RecordingLease(topic.routes().get(0));
        SendAttempts attempts = attempts(lease);
        Attempt attempt = attempts.next();
        clock.advance(Duration.ofMillis(7));

        attempts.succeeded(attempt, new BoundSendResult("id", "orders", "broker-a", 0, 1), true);
        assertThat(lease.latencies).as("7 ms passed on the fake clock between the start and the answer")
                .containsExactly(Duration.ofMillis(7).toNanos());
    }

    @Test
    void onlyTheAnswerThatSpeaksForABatchRequestFeedsTheFailoverAndThePulse() throws Exception {
        RecordingLease first = new RecordingLease(topic.routes().get(0));
        RecordingLease other = new RecordingLease(topic.routes().get(0));
        Attempt firstAttempt = attempts(first).next();
        Attempt otherAttempt = attempts(other).next();
        clock.advance(Duration.ofMillis(3));
        BoundSendResult stored = new BoundSendResult("id", "orders", "broker-a", 0, 1);

        attempts(other).succeeded(otherAttempt, stored, false);
        assertThat(other.latencies).as("another message of the request: no second success").isEmpty();
        assertThat(other.ignored).as("its lease still ends").isEqualTo(1);
        assertThat(pulse.silentSince("cluster-a", firstAttempt.startNanos())).as("no answer recorded yet").isFalse();

        attempts(first).succeeded(firstAttempt, stored, true);
        assertThat(first.latencies).containsExactly(Duration.ofMillis(3).toNanos());
        clock.advance(Duration.ofMillis(1));
        assertThat(pulse.silentSince("cluster-a", clock.read())).as("the request's answer was recorded").isTrue();

        SendFailedException lost = new SendFailedException("lost", "orders", "cluster-a", null);
        RecordingLease otherFailing = new RecordingLease(topic.routes().get(0));
        SendAttempts otherFailingAttempts = attempts(otherFailing);
        otherFailingAttempts.failed(otherFailingAttempts.next(), lost, false);
        RecordingLease firstFailing = new RecordingLease(topic.routes().get(0));
        SendAttempts firstFailingAttempts = attempts(firstFailing);
        firstFailingAttempts.failed(firstFailingAttempts.next(), lost, true);
        assertThat(List.of(firstFailing.failures, otherFailing.failures, otherFailing.ignored))
                .as("a request's failure counts once, by its first message: failures of first and other, other ignored")
                .containsExactly(1, 0, 1);
    }

    private SendAttempts attempts() throws Exception {
        return attempts(new RecordingLease(topic.routes().get(0)));
    }

    private SendAttempts attempts(RouteLease lease) throws Exception {
        PlatformConfig snapshot = PlatformConfig.builder()
                .cluster(new ClusterConfig("cluster-a", "idc-a", "127.0.0.1:1", Map.of()))
                .cluster(new ClusterConfig("cluster-b", "idc-b", "127.0.0.1:2", Map.of()))
                .producer(new ProducerConfig(SEND_TIMEOUT, 1024, 1, FAILOVER_AFTER))
                .topic(topic)
                .build();
        Message message = Message.builder("orders").body("x".getBytes(StandardCharsets.UTF_8)).build();
        return new SendAttempts(new SendRouting(new OneRoute(lease), new SdkMetrics(new SimpleMeterRegistry(), "test"), pulse,
                clock), topic, message, Map.of(), snapshot, Optional.empty());
    }

    private record OneRoute(RouteLease lease) implements ClusterChooser {
        @Override
        public Optional<RouteLease> choose(LogicTopicConfig topic, Optional<String> shardingKey, Set<String> excluded) {
            return excluded.contains(lease.route().cluster()) ? Optional.empty() : Optional.of(lease);
        }

        @Override
        public void close() {
        }
    }

    private static final class RecordingLease implements RouteLease {
        private final TopicRoute route;
        final List<Long> latencies = new ArrayList<>();
        int ignored;
        int failures;

        RecordingLease(TopicRoute route) {
            this.route = route;
        }

        @Override
        public TopicRoute route() {
            return route;
        }

        @Override
        public void succeeded(long latencyNanos) {
            latencies.add(latencyNanos);
        }

        @Override
        public void failed() {
            failures++;
        }

        @Override
        public void ignored() {
            ignored++;
        }
    }
}

package io.lanemq.core.internal.lane;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Status;
import io.lanemq.api.ConsumeResult;
import io.lanemq.api.Lane;
import io.lanemq.api.MessageContext;
import io.lanemq.api.ReceivedMessage;
import io.lanemq.api.spi.BoundMessage;
import io.lanemq.core.internal.consume.listener.DeliveredMessage;
import io.lanemq.core.internal.lane.forward.LaneForwardException;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.support.Ticker;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The routing decisions with a recording forwarder; LaneForwardingIT drives the real transport through real brokers. */
class LaneRoutingListenerTest {
    private static final LaneMember SELF = new LaneMember(Optional.empty(), "10.0.0.1", 7001);
    private static final LaneMember A_1 = new LaneMember(Optional.of(Lane.of("A")), "10.0.0.2", 7002);
    private static final LaneMember A_2 = new LaneMember(Optional.of(Lane.of("A")), "10.0.0.3", 7003);

    /** Long enough for a read another thread makes, short enough for a test that sees none. */
    private static final Duration WAIT = Duration.ofSeconds(1);

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final LaneDirectory directory = new LaneDirectory(SELF, TimeUnit.SECONDS.toNanos(30), Ticker.system());
    private final List<ReceivedMessage> consumedHere = new ArrayList<>();
    private final List<LaneMember> forwardedTo = new ArrayList<>();

    @Test
    void consumesItsOwnLaneHereAndAnswersForAForwardedMessageWithTheMembersAnswer() {
        directory.update(List.of(A_1.tag()));
        LaneRoutingListener listener = listener(Set.of(), ConsumeResult.RETRY_LATER);

        assertThat(listener.consume(message(null))).isEqualTo(ConsumeResult.SUCCESS);
        assertThat(listener.consume(message("A.X"))).as("the member's answer").isEqualTo(ConsumeResult.RETRY_LATER);

        assertThat(consumedHere).hasSize(1);
        assertThat(forwardedTo).containsExactly(A_1);
        assertThat(routed(SdkMetrics.LaneOutcome.LOCAL)).isEqualTo(1);
        assertThat(routed(SdkMetrics.LaneOutcome.FORWARDED)).isEqualTo(1);
    }

    @Test
    void aFailedMemberIsSuspectedAndTheMessageGoesToItsPeer() {
        directory.update(List.of(A_1.tag(), A_2.tag()));
        LaneRoutingListener listener = listener(Set.of(A_1), ConsumeResult.SUCCESS);

        for (int i = 0; i < 5; i++) {
            assertThat(listener.consume(message("A"))).isEqualTo(ConsumeResult.SUCCESS);
        }

        assertThat(forwardedTo.stream().filter(A_1::equals).count()).as("tries of the failed member").isLessThanOrEqualTo(1);
        assertThat(forwardedTo.stream().filter(A_2::equals).count()).isEqualTo(5);
        assertThat(consumedHere).isEmpty();
    }

    @Test
    void aBusyMemberIsNotSuspectedAndTheMessageIsRetriedLater() {
        directory.update(List.of(A_1.tag(), A_2.tag()));
        LaneRoutingListener listener = listener(Set.of(), ConsumeResult.SUCCESS);
        busy = true;

        assertThat(listener.consume(message("A"))).as("while the lane pushes back").isEqualTo(ConsumeResult.RETRY_LATER);
        assertThat(forwardedTo).as("one forward, no second member tried").hasSize(1);
        busy = false;
        for (int i = 0; i < 20; i++) {
            assertThat(listener.consume(message("A"))).isEqualTo(ConsumeResult.SUCCESS);
        }
        assertThat(forwardedTo.subList(1, forwardedTo.size())).as("the busy member keeps its share").contains(forwardedTo.get(0));
    }

    @Test
    void whenEveryMemberOfTheLaneFailsTheMessageWaitsForTheLaneInsteadOfFallingBack() {
        directory.update(List.of(A_1.tag(), A_2.tag()));
        LaneRoutingListener listener = listener(Set.of(A_1, A_2), ConsumeResult.SUCCESS);

        assertThat(listener.consume(message("A.X"))).isEqualTo(ConsumeResult.RETRY_LATER);
        assertThat(consumedHere).as("a lane's message never reaches the base because the lane is busy").isEmpty();
        assertThat(routed(SdkMetrics.LaneOutcome.FORWARD_FAILED)).isEqualTo(2);
        assertThat(routed(SdkMetrics.LaneOutcome.UNREACHABLE)).isEqualTo(1);
    }

    @Test
    void aMessageNoLaneCanTakeNowIsRetriedLater() {
        LaneDirectory laneOnly = new LaneDirectory(A_1, TimeUnit.SECONDS.toNanos(30), Ticker.system());
        laneOnly.update(List.of());
        LaneRoutingListener listener = new LaneRoutingListener("g", this::consumeHere, laneOnly, this::forward,
                new SdkMetrics(registry, "app"), WAIT);

        assertThat(listener.consume(message(null))).isEqualTo(ConsumeResult.RETRY_LATER);
        assertThat(consumedHere).isEmpty();
        assertThat(routed(SdkMetrics.LaneOutcome.UNROUTABLE)).isEqualTo(1);
    }

    @Test
    void aMessageReceivedBeforeTheMembersWereReadWaitsForTheFirstRead() throws Exception {
        LaneRoutingListener listener = listener(Set.of(), ConsumeResult.SUCCESS);
        assertThat(listener.consume(message("A"))).as("never read").isEqualTo(ConsumeResult.RETRY_LATER);
        assertThat(consumedHere).as("not taken as the group's only member").isEmpty();

        CompletableFuture<ConsumeResult> waiting = CompletableFuture.supplyAsync(() -> listener.consume(message("A")));
        directory.update(List.of(A_1.tag()));

        assertThat(waiting.get(5, TimeUnit.SECONDS)).isEqualTo(ConsumeResult.SUCCESS);
        assertThat(forwardedTo).containsExactly(A_1);
    }

    private Set<LaneMember> failing = Set.of();
    private boolean busy;
    private ConsumeResult remoteAnswer = ConsumeResult.SUCCESS;

    private LaneRoutingListener listener(Set<LaneMember> failing, ConsumeResult remoteAnswer) {
        this.failing = failing;
        this.remoteAnswer = remoteAnswer;
        return new LaneRoutingListener("g", this::consumeHere, directory, this::forward, new SdkMetrics(registry, "app"), WAIT);
    }

    private ConsumeResult consumeHere(ReceivedMessage message) {
        consumedHere.add(message);
        return ConsumeResult.SUCCESS;
    }

    private ConsumeResult forward(LaneMember target, String group, ReceivedMessage message) throws Exception {
        forwardedTo.add(target);
        if (busy) {
            throw new LaneForwardException(Status.Code.RESOURCE_EXHAUSTED, "every listener thread of " + target + " is busy", null);
        }
        if (failing.contains(target)) {
            throw new IOException("connection refused: " + target);
        }
        return remoteAnswer;
    }

    private double routed(SdkMetrics.LaneOutcome outcome) {
        return registry.find(SdkMetrics.LANE_ROUTED).tag(SdkMetrics.TAG_OUTCOME, outcome.tag()).counters().stream()
                .mapToDouble(c -> c.count()).sum();
    }

    private static ReceivedMessage message(String lane) {
        Map<String, String> properties = lane == null ? Map.of() : Map.of(MessageContext.LANE_PROPERTY, lane);
        return new DeliveredMessage("t", "c", new BoundMessage("id", "p", new byte[] {1}, List.of(), Optional.empty(),
                properties, Optional.empty(), "broker-0", 0, 0, 1, 0));
    }
}

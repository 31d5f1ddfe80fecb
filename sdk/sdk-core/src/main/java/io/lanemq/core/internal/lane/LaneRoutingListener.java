package io.lanemq.core.internal.lane;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.Lane;
import io.lanemq.api.MessageListener;
import io.lanemq.api.ReceivedMessage;
import io.lanemq.core.internal.lane.forward.LaneForwardException;
import io.lanemq.core.metrics.SdkMetrics;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The listener a lane-aware consumer runs: a message this instance's lane should consume goes to the
 * application's listener; one that belongs to another lane is forwarded to a live member of that lane,
 * and the answer of that member's listener is this message's answer, so the broker's copy is
 * acknowledged only once the member succeeded. A message that cannot be placed now (no live member on
 * its fallback path, or every forward failed) is retried later, never dropped.
 */
final class LaneRoutingListener implements MessageListener {
    private static final Logger log = LoggerFactory.getLogger(LaneRoutingListener.class);
    /** A failed member is left out and the message routed again, to a peer: this many forwards in all. */
    private static final int MAX_FORWARDS = 3;

    private final String consumerGroup;
    private final MessageListener local;
    private final LaneDirectory directory;
    private final LaneForwarder forwarder;
    private final SdkMetrics metrics;
    private final long firstReadWaitNanos;

    /** @param firstReadWait how long a message received before the group's members were read once waits for that read */
    LaneRoutingListener(String consumerGroup, MessageListener local, LaneDirectory directory, LaneForwarder forwarder,
                        SdkMetrics metrics, Duration firstReadWait) {
        this.consumerGroup = consumerGroup;
        this.local = local;
        this.directory = directory;
        this.forwarder = forwarder;
        this.metrics = metrics;
        this.firstReadWaitNanos = firstReadWait.toNanos();
    }

    @Override
    public ConsumeResult consume(ReceivedMessage message) {
        // The consumer starts before the brokers can be asked who else is in the group: its first messages wait.
        if (!directory.awaitFirstRead(firstReadWaitNanos)) {
            metrics.laneRouted(consumerGroup, SdkMetrics.LaneOutcome.UNROUTABLE);
            log.warn("the members of group '{}' could not be read yet; retrying {} later", consumerGroup, message);
            return ConsumeResult.RETRY_LATER;
        }
        for (int forwards = 0; forwards < MAX_FORWARDS; forwards++) {
            LaneRoute route = directory.route(message.lane());
            switch (route.kind()) {
                case LOCAL -> {
                    metrics.laneRouted(consumerGroup, SdkMetrics.LaneOutcome.LOCAL);
                    return local.consume(message);
                }
                case UNROUTABLE -> {
                    metrics.laneRouted(consumerGroup, SdkMetrics.LaneOutcome.UNROUTABLE);
                    log.warn("no live consumer of group '{}' in lanes {} for {}; retrying it later", consumerGroup,
                            route.tried().stream().map(l -> l.map(Lane::path).orElse("base")).toList(), message);
                    return ConsumeResult.RETRY_LATER;
                }
                case UNREACHABLE -> {
                    metrics.laneRouted(consumerGroup, SdkMetrics.LaneOutcome.UNREACHABLE);
                    log.warn("every consumer of group '{}' in lane {} failed a forward lately; retrying {} later",
                            consumerGroup, route.lane().map(Lane::path).orElse("base"), message);
                    return ConsumeResult.RETRY_LATER;
                }
                case FORWARD -> {
                    LaneMember target = pick(route.members());
                    try {
                        ConsumeResult result = forwarder.forward(target, consumerGroup, message);
                        metrics.laneRouted(consumerGroup, SdkMetrics.LaneOutcome.FORWARDED);
                        return result;
                    } catch (LaneForwardException e) {
                        metrics.laneRouted(consumerGroup, SdkMetrics.LaneOutcome.FORWARD_FAILED);
                        if (e.busy()) {
                            // Back-pressure from a live member: the broker redelivers later. Suspecting it would
                            // send its whole lane's traffic to its peers, or to nobody, for the suspect period.
                            log.debug("lane member {} is busy; retrying {} of group '{}' later: {}", target, message,
                                    consumerGroup, e.getMessage());
                            return ConsumeResult.RETRY_LATER;
                        }
                        directory.suspect(target);
                        log.warn("forwarding {} of group '{}' to lane member {} failed ({}); routing it again", message,
                                consumerGroup, target, e.getMessage());
                    } catch (Exception e) {
                        metrics.laneRouted(consumerGroup, SdkMetrics.LaneOutcome.FORWARD_FAILED);
                        directory.suspect(target);
                        log.warn("forwarding {} of group '{}' to lane member {} failed ({}); routing it again", message,
                                consumerGroup, target, e.getMessage());
                    }
                }
                default -> throw new IllegalStateException("unknown route " + route);
            }
        }
        return ConsumeResult.RETRY_LATER;
    }

    private static LaneMember pick(List<LaneMember> members) {
        return members.size() == 1 ? members.get(0) : members.get(ThreadLocalRandom.current().nextInt(members.size()));
    }
}

package io.lanemq.proxy;

import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.support.attach.AttachLoop;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.List;
import java.util.function.Supplier;

/** The proxy's meters; every name is here. Tags: {@code topic} (logic topic), {@code group}, and where said, more. */
final class ProxyMetrics {
    static final String DELIVERIES = "lanemq.proxy.deliveries";
    static final String ACKS = "lanemq.proxy.acks";
    static final String REDELIVERIES = "lanemq.proxy.redeliveries";
    static final String PARKED_RETRIES = "lanemq.proxy.parked.retries";
    static final String PARK_FAILURES = "lanemq.proxy.parked.retry.send.failures";
    static final String DEAD_LETTERS = "lanemq.proxy.dead.letters";
    static final String DEAD_LETTER_FAILURES = "lanemq.proxy.dead.letter.send.failures";
    static final String IN_FLIGHT = "lanemq.proxy.in.flight";
    static final String HELD = "lanemq.proxy.held";
    static final String CONSUMERS = "lanemq.proxy.consumers";
    static final String UNCOMMITTED = "lanemq.proxy.uncommitted";
    static final String LAG = "lanemq.proxy.lag";
    static final String QUEUES = "lanemq.proxy.queues";
    static final String COMMIT_FAILURES = "lanemq.proxy.commit.failures";
    static final String DROPPED_FRAMES = "lanemq.proxy.dropped.frames";
    static final String REFUSED_CALLS = "lanemq.proxy.refused.calls";
    /** Connections closed on accept, by {@code reason} ({@code connection_cap}). */
    static final String REFUSED_CONNECTIONS = "lanemq.proxy.refused.connections";
    static final String FRAME_DELIVERIES = "lanemq.proxy.frame.deliveries";

    private final MeterRegistry registry;
    /** The SDK's meter names where the proxy does what a DIRECT consumer does (attaching a cluster). */
    private final SdkMetrics sdk;

    ProxyMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.sdk = new SdkMetrics(registry, "lanemq-consumer-proxy");
    }

    /** Attach attempts of {@code group}'s fetcher on {@code cluster}: {@link SdkMetrics#CONSUMER_ATTACH_ATTEMPTS}. */
    AttachLoop.Outcomes attachOutcomes(GroupKey group, String cluster) {
        return sdk.attachOutcomes(group.consumerGroup(), cluster);
    }

    MeterRegistry registry() {
        return registry;
    }

    /** Per consumer, so the spread over consumers (and each one's rate) shows. */
    Counter deliveries(GroupKey group, String consumerId) {
        return registry.counter(DELIVERIES, tags(group).and("consumer", consumerId));
    }

    Counter acks(GroupKey group) {
        return registry.counter(ACKS, tags(group));
    }

    Counter redeliveries(GroupKey group, DispatchListener.FailedBy reason) {
        return registry.counter(REDELIVERIES, tags(group).and("reason", reason.name().toLowerCase()));
    }

    /** Retries stored in the group's retry topic as timer messages instead of waiting in the proxy. */
    Counter parkedRetries(GroupKey group) {
        return registry.counter(PARKED_RETRIES, tags(group));
    }

    /** A send to the retry topic that failed (it is tried again every second; the message stays held meanwhile). */
    Counter parkFailures(GroupKey group) {
        return registry.counter(PARK_FAILURES, tags(group));
    }

    Counter deadLetters(GroupKey group) {
        return registry.counter(DEAD_LETTERS, tags(group));
    }

    Counter deadLetterFailures(GroupKey group) {
        return registry.counter(DEAD_LETTER_FAILURES, tags(group));
    }

    Counter commitFailures(GroupKey group) {
        return registry.counter(COMMIT_FAILURES, tags(group));
    }

    /** A frame dropped with a Status answer; {@code reason} is the Status code. */
    Counter droppedFrames(String reason) {
        return registry.counter(DROPPED_FRAMES, "reason", reason);
    }

    /**
     * Deliveries per pushed frame: how well pushes batch (1 for clients that do not accept Deliveries
     * frames); each frame costs a TLS record and wake-ups at both ends, whatever it holds.
     */
    DistributionSummary frameDeliveries() {
        return DistributionSummary.builder(FRAME_DELIVERIES).description("deliveries per pushed frame").register(registry);
    }

    /** A call ended with a terminal status before it was served; {@code code} is the gRPC code. */
    Counter refusedCalls(String code) {
        return registry.counter(REFUSED_CALLS, "code", code);
    }

    Counter refusedConnections(String reason) {
        return registry.counter(REFUSED_CONNECTIONS, "reason", reason);
    }

    /** Registers the group's gauges; returns them, so a stopped group can remove them (a restarted one registers anew). */
    List<Meter> groupGauges(GroupKey group, GroupDispatcher dispatcher, Supplier<Number> uncommitted) {
        return List.of(Gauge.builder(IN_FLIGHT, dispatcher, GroupDispatcher::outstanding).tags(tags(group))
                .description("deliveries out with consumers, not yet acked").register(registry),
                Gauge.builder(HELD, dispatcher, GroupDispatcher::held).tags(tags(group))
                .description("messages fetched and not finished (waiting, in flight or waiting for a retry)").register(registry),
                Gauge.builder(CONSUMERS, dispatcher, GroupDispatcher::consumers).tags(tags(group)).register(registry),
                Gauge.builder(UNCOMMITTED, uncommitted).tags(tags(group))
                .description("fetched messages whose offsets cannot be committed yet").register(registry));
    }

    /** The group's backlog on one cluster, as the brokers count it (tag {@code cluster}). */
    Meter lag(GroupKey group, String cluster, Supplier<Number> lag) {
        return Gauge.builder(LAG, lag).tags(tags(group).and("cluster", cluster))
                .description("messages on the brokers beyond the group's committed offset, on the queues this proxy holds")
                .register(registry);
    }

    /**
     * How many of the logic topic's queues on one cluster RocketMQ's rebalancing gave this instance (tag
     * {@code cluster}): the instances of a group add up to the topic's queue count once the split has settled.
     */
    Meter queues(GroupKey group, String cluster, Supplier<Number> queues) {
        return Gauge.builder(QUEUES, queues).tags(tags(group).and("cluster", cluster))
                .description("queues of the logic topic on this cluster that this proxy instance reads").register(registry);
    }

    void remove(List<Meter> meters) {
        meters.forEach(registry::remove);
    }

    private static Tags tags(GroupKey group) {
        return Tags.of("topic", group.logicTopic(), "group", group.consumerGroup());
    }
}

package io.lanemq.core.internal.lane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.Lane;
import io.lanemq.api.LaneEndpointException;
import io.lanemq.api.LaneOptions;
import io.lanemq.api.MessageContext;
import io.lanemq.api.ReceivedMessage;
import io.lanemq.api.Subscription;
import io.lanemq.api.spi.BoundMessage;
import io.lanemq.api.spi.PhysicalMessage;
import io.lanemq.config.ClusterConfig;
import io.lanemq.config.ConsumerConfig;
import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.StartPosition;
import io.lanemq.config.TopicRoute;
import io.lanemq.config.ProducerConfig;
import io.lanemq.core.internal.consume.listener.DeliveredMessage;
import io.lanemq.core.internal.consume.listener.ObservedListener;
import io.lanemq.core.internal.consume.DualClusterConsumer;
import io.lanemq.core.internal.consume.LaneMembership;
import io.lanemq.core.internal.consume.proxy.ProxyIdentity;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.testkit.memory.MemoryBinding;
import io.lanemq.testkit.tls.SelfSignedCertificate;
import io.lanemq.testkit.tracing.RecordingTracing;
import io.lanemq.support.Ticker;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A client's part in lanes, two members of one group on the in-memory binding with real forwarding endpoints
 * (TLS on 127.0.0.1, port 0): the member lists the brokers keep decide where each message is consumed.
 */
class LaneRuntimeTest {
    private static final SelfSignedCertificate CERTIFICATE = SelfSignedCertificate.shared();
    private static final String TOKEN = "lane-runtime-test-token-0123456789";
    private static final Subscription BILLING = Subscription.builder("orders", "billing").build();
    private static final Duration WAIT = Duration.ofSeconds(10);

    private final MemoryBinding binding = new MemoryBinding();
    private final List<AutoCloseable> closing = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            closing.get(i).close();
        }
        binding.close();
    }

    @Test
    void eachMessageIsConsumedByAMemberOfItsLaneWhicheverMemberTheBrokerGaveItTo() throws Exception {
        Member base = member(Optional.empty());
        Member laneA = member(Optional.of("A"));
        await().atMost(WAIT).until(() -> base.runtime.lanesWithMembers("billing", "orders")
                .map(lanes -> lanes.contains(Optional.of(Lane.of("A")))).orElse(false));

        for (int i = 0; i < 8; i++) { // round-robin over 4 queues, 2 each member: both receive some of each kind
            publish("a-" + i, Optional.of("A"));
            publish("base-" + i, Optional.empty());
        }

        await().atMost(WAIT).until(() -> base.received.size() + laneA.received.size() == 16);
        assertThat(laneA.bodies()).as("lane A's messages").hasSize(8).allMatch(body -> body.startsWith("a-"));
        assertThat(base.bodies()).as("the base's messages").hasSize(8).allMatch(body -> body.startsWith("base-"));
        assertThat(base.routed(SdkMetrics.LaneOutcome.FORWARDED)).as("forwarded by the base member").isPositive();
        // The base counts a forward once lane A's answer is back, a moment after lane A's listener ran (CI saw 7 of 8).
        await().atMost(WAIT).untilAsserted(() -> assertThat(laneA.routed(SdkMetrics.LaneOutcome.RECEIVED))
                .as("received by lane A's endpoint").isEqualTo(base.routed(SdkMetrics.LaneOutcome.FORWARDED)));
    }

    @Test
    void aClientConsumesEachGroupAndTopicInLanesOnce() throws Exception {
        LaneRuntime runtime = runtime(Optional.empty(), new SdkMetrics(new SimpleMeterRegistry(), "test"));
        runtime.register(BILLING, message -> ConsumeResult.SUCCESS);

        assertThatThrownBy(() -> runtime.register(BILLING, message -> ConsumeResult.SUCCESS))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("orders").hasMessageContaining("billing");
        assertThat(runtime.register(Subscription.builder("orders", "audit").build(), message -> ConsumeResult.SUCCESS))
                .as("another group of the topic").isNotNull();
    }

    @Test
    void anUnknownOrFailedReadOfTheMembersKeepsTheLastView() throws Exception {
        LaneRuntime runtime = runtime(Optional.empty(), new SdkMetrics(new SimpleMeterRegistry(), "test"));
        LaneRuntime.LaneSubscription subscription = runtime.register(BILLING, message -> ConsumeResult.SUCCESS);
        String laneATag = new LaneMember(Optional.of(Lane.of("A")), "10.0.0.2", 7002).tag();
        AtomicReference<Supplier<Optional<List<String>>>> answer = new AtomicReference<>(() -> Optional.of(List.of(laneATag)));
        AtomicInteger reads = new AtomicInteger();
        subscription.watch(() -> {
            reads.incrementAndGet();
            return answer.get().get();
        });
        await().atMost(WAIT).until(() -> subscription.lanesWithMembers().contains(Optional.of(Lane.of("A"))));

        answer.set(Optional::empty);
        int unknownFrom = reads.get();
        await().atMost(WAIT).until(() -> reads.get() >= unknownFrom + 2);
        assertThat(subscription.lanesWithMembers()).as("after unknown answers").contains(Optional.of(Lane.of("A")));

        answer.set(() -> {
            throw new IllegalStateException("brokers unreachable");
        });
        int failingFrom = reads.get();
        await().atMost(WAIT).until(() -> reads.get() >= failingFrom + 2);
        assertThat(subscription.lanesWithMembers()).as("after failed reads, still refreshing").contains(Optional.of(Lane.of("A")));

        answer.set(() -> Optional.of(List.of()));
        await().atMost(WAIT).until(() -> !subscription.lanesWithMembers().contains(Optional.of(Lane.of("A"))));
    }

    @Test
    void aForwardedMessageRunsTheApplicationsListenerUntilItsSubscriptionCloses() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        LaneRuntime target = runtime(Optional.of("A"), new SdkMetrics(registry, "test"));
        List<ReceivedMessage> consumed = new CopyOnWriteArrayList<>();
        LaneRuntime.LaneSubscription subscription = target.register(BILLING, message -> {
            consumed.add(message);
            return ConsumeResult.SUCCESS;
        });
        LaneRuntime forwarder = runtime(Optional.empty(), new SdkMetrics(new SimpleMeterRegistry(), "test"));
        LaneRuntime.LaneSubscription routing = forwarder.register(BILLING, message -> {
            throw new AssertionError("lane A's message consumed by the base: " + message);
        });
        String targetTag = new LaneMember(Optional.of(Lane.of("A")), "127.0.0.1", target.address().getPort()).tag();
        routing.watch(() -> Optional.of(List.of(targetTag))); // the brokers list it, before and after its close
        await().atMost(WAIT).until(() -> routing.lanesWithMembers().contains(Optional.of(Lane.of("A"))));

        assertThat(routing.listener().consume(message("to-A", Optional.of("A")))).isEqualTo(ConsumeResult.SUCCESS);
        assertThat(consumed).extracting(m -> new String(m.body(), StandardCharsets.UTF_8)).containsExactly("to-A");

        subscription.close();
        assertThat(routing.listener().consume(message("too-late", Optional.of("A")))).as("refused by the member, retried later")
                .isEqualTo(ConsumeResult.RETRY_LATER);
        assertThat(consumed).hasSize(1);
        assertThat(registry.find(SdkMetrics.LANE_ROUTED).tag(SdkMetrics.TAG_OUTCOME, SdkMetrics.LaneOutcome.RECEIVED.tag())
                .counter().count()).as("forwarded messages the member's listener ran").isEqualTo(1.0);
    }

    /**
     * The client wraps the application's listener in its observation before it registers it with the lanes, so a
     * forwarded message (its properties whole) is traced where the listener runs, continuing the sender's trace.
     */
    @Test
    void aForwardedMessageIsConsumedInASpanThatContinuesTheTraceItsPropertiesCarry() throws Exception {
        try (RecordingTracing tracing = new RecordingTracing()) {
            LaneRuntime target = runtime(Optional.of("A"), new SdkMetrics(new SimpleMeterRegistry(), "test"));
            List<String> spansInListener = new CopyOnWriteArrayList<>();
            target.register(BILLING, ObservedListener.wrap(BILLING, message -> {
                spansInListener.add(tracing.tracer().currentSpan().context().traceId());
                return ConsumeResult.SUCCESS;
            }, tracing.observations()));
            LaneRuntime forwarder = runtime(Optional.empty(), new SdkMetrics(new SimpleMeterRegistry(), "test"));
            LaneRuntime.LaneSubscription routing = forwarder.register(BILLING, ObservedListener.wrap(BILLING, message -> {
                throw new AssertionError("lane A's message consumed by the base: " + message);
            }, tracing.observations()));
            String targetTag = new LaneMember(Optional.of(Lane.of("A")), "127.0.0.1", target.address().getPort()).tag();
            routing.watch(() -> Optional.of(List.of(targetTag)));
            await().atMost(WAIT).until(() -> routing.lanesWithMembers().contains(Optional.of(Lane.of("A"))));
            String traceId = "0af7651916cd43dd8448eb211c80319c";
            String sendSpanId = "b7ad6b7169203331";
            ReceivedMessage traced = new DeliveredMessage("orders", "cluster-a", new BoundMessage("id-traced", "orders_a",
                    new byte[1], List.of(), Optional.empty(), Map.of(MessageContext.LANE_PROPERTY, "A",
                    "traceparent", "00-" + traceId + "-" + sendSpanId + "-01"), Optional.empty(), "broker", 0, 0, 1, 0));

            assertThat(routing.listener().consume(traced)).isEqualTo(ConsumeResult.SUCCESS);

            assertThat(tracing.spans()).as("one consume span, on lane A's member: the forwarding member ran no listener")
                    .singleElement().satisfies(consume -> {
                        assertThat(consume.traceId()).isEqualTo(traceId);
                        assertThat(consume.parentId()).isEqualTo(sendSpanId);
                    });
            assertThat(spansInListener).containsExactly(traceId);
        }
    }

    @Test
    void aPortThatIsTakenFailsTheStartNamingIt() throws Exception {
        LaneRuntime first = runtime(Optional.empty(), new SdkMetrics(new SimpleMeterRegistry(), "test"));
        int port = first.address().getPort();

        assertThatThrownBy(() -> LaneRuntime.start(options(Optional.empty(), port), ProducerConfig.DEFAULTS.maxBodyBytes(), new SdkMetrics(new SimpleMeterRegistry(), "t"),
                Ticker.system(), "test"))
                .isInstanceOf(LaneEndpointException.class).hasMessageContaining("127.0.0.1:" + port);
    }

    private Member member(Optional<String> lane) throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        SdkMetrics metrics = new SdkMetrics(registry, "test");
        LaneRuntime runtime = runtime(lane, metrics);
        Member member = new Member(runtime, registry);
        LaneRuntime.LaneSubscription subscription = runtime.register(BILLING, member::consume);
        DualClusterConsumer consumer = DualClusterConsumer.start(BILLING, subscription.listener(), config(), binding, metrics,
                new ProxyIdentity("app", Optional.empty()), Optional.of(new LaneMembership(runtime.memberTag(), runtime.lane(), member::consume)), Ticker.system(),
                c -> subscription.close());
        closing.add(consumer);
        subscription.watch(consumer::memberTags);
        return member;
    }

    private LaneRuntime runtime(Optional<String> lane, SdkMetrics metrics) throws Exception {
        LaneRuntime runtime = LaneRuntime.start(options(lane, 0), ProducerConfig.DEFAULTS.maxBodyBytes(), metrics, Ticker.system(), "test");
        closing.add(runtime);
        return runtime;
    }

    private static LaneOptions options(Optional<String> lane, int port) {
        LaneOptions.Builder builder = LaneOptions.builder().listen("127.0.0.1", port)
                .tls(CERTIFICATE.certificatePem(), CERTIFICATE.privateKeyPem(), CERTIFICATE.certificatePem())
                .token(TOKEN).membershipRefresh(Duration.ofMillis(100)).forwardTimeout(Duration.ofSeconds(5));
        lane.ifPresent(builder::lane);
        return builder.build();
    }

    private void publish(String body, Optional<String> lane) {
        binding.cluster("cluster-a").publish(new PhysicalMessage("orders_a", body.getBytes(StandardCharsets.UTF_8), List.of(),
                Optional.empty(), lane.map(path -> Map.of(MessageContext.LANE_PROPERTY, path)).orElse(Map.of()), Optional.empty()));
    }

    private static ReceivedMessage message(String body, Optional<String> lane) {
        return new DeliveredMessage("orders", "cluster-a", new BoundMessage("id-" + body, "orders_a",
                body.getBytes(StandardCharsets.UTF_8), List.of(), Optional.empty(),
                lane.map(path -> Map.of(MessageContext.LANE_PROPERTY, path)).orElse(Map.of()), Optional.empty(), "broker", 0, 0,
                1, 0));
    }

    private static PlatformConfig config() throws Exception {
        return PlatformConfig.builder()
                .cluster(new ClusterConfig("cluster-a", "idc-a", "10.0.0.1:9876", Map.of()))
                .topic(new LogicTopicConfig("orders", List.of(new TopicRoute("cluster-a", "orders_a", 1)),
                        Map.of("billing", new ConsumerConfig(2, 3, StartPosition.EARLIEST))))
                .build();
    }

    /** One application instance: its runtime and what its listener consumed. */
    private static final class Member {
        final LaneRuntime runtime;
        final SimpleMeterRegistry registry;
        final List<ReceivedMessage> received = new CopyOnWriteArrayList<>();

        Member(LaneRuntime runtime, SimpleMeterRegistry registry) {
            this.runtime = runtime;
            this.registry = registry;
        }

        ConsumeResult consume(ReceivedMessage message) {
            received.add(message);
            return ConsumeResult.SUCCESS;
        }

        List<String> bodies() {
            return received.stream().map(m -> new String(m.body(), StandardCharsets.UTF_8)).toList();
        }

        double routed(SdkMetrics.LaneOutcome outcome) {
            var counter = registry.find(SdkMetrics.LANE_ROUTED).tag(SdkMetrics.TAG_OUTCOME, outcome.tag()).counter();
            return counter == null ? 0 : counter.count();
        }
    }
}

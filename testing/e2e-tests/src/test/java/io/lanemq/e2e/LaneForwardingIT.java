package io.lanemq.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.ClientOptions;
import io.lanemq.api.ConsumeResult;
import io.lanemq.api.Consumer;
import io.lanemq.api.Lane;
import io.lanemq.api.LaneOptions;
import io.lanemq.api.Message;
import io.lanemq.api.MessageContext;
import io.lanemq.api.MessagingException;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.api.ReceivedMessage;
import io.lanemq.api.RetryBackoff;
import io.lanemq.api.Subscription;
import io.lanemq.core.client.CoreMessagingClient;
import io.lanemq.config.ConsumptionMode;
import io.lanemq.config.ConsumerProxyConfig;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.localstack.LocalPlatform;
import io.lanemq.testkit.RocketMqStack;
import io.lanemq.testkit.tls.SelfSignedCertificate;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Three deployments of one consumer group on one topic, in the base, lane A and lane A.X, each a client
 * of its own with a forwarding endpoint, on the real dual-IDC brokers: every message is consumed by the
 * most specific lane with a live consumer, whichever member the brokers gave its queue to. The group
 * consumes in {@link #mode()}: DIRECT here (a member forwards other lanes' messages), PROXY in
 * {@link ProxyLaneForwardingIT} (the consumer proxy pushes each lane its own messages), with the same tests.
 */
class LaneForwardingIT {
    static final String TOPIC = "lane-orders";
    private static final String FOLLOW_UPS = "lane-follow-ups";
    static final String TOKEN = "lane-it-token-0123456789";
    static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final List<String> LANES = List.of("", "A", "A.X");
    /** Every client's application name: the proxy knows each with the fixture's token. */
    private static final List<String> APPLICATIONS = List.of("lane-it-sender", "lane-it-base", "lane-it-A", "lane-it-A_X",
            "lane-member-K");

    final String group = LocalPlatform.unique("lanes");
    private final String followUpGroup = LocalPlatform.unique("follow-ups");
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final Map<String, Deployment> deployments = new LinkedHashMap<>();
    /** The clients; each closes its producers and consumers. */
    private final List<AutoCloseable> resources = new ArrayList<>();
    LocalPlatform platform;
    /** The consumer proxy: from the start in PROXY mode, started by the mode-change test in DIRECT mode. */
    ProxyFixture proxy;
    private Producer producer;
    private final Queue<ReceivedMessage> followUps = new ConcurrentLinkedQueue<>();

    /** One application instance in one lane; {@code consumed} holds what its listener ran, with the context it ran in. */
    record Deployment(String lane, CoreMessagingClient client, Consumer consumer, Queue<Consumed> consumed) {
    }

    /** @param nanos when the listener ran, {@link System#nanoTime()} */
    record Consumed(String key, int attempt, MessageContext context, long nanos) {
    }

    @BeforeEach
    void startDeployments() throws Exception {
        platform = LocalPlatform.on(RocketMqStack.shared()).addTopic(TOPIC, 4, 50, 50, group)
                .addTopic(FOLLOW_UPS, 2, 50, 50, followUpGroup);
        platform.writeConfig();
        if (mode() == ConsumptionMode.PROXY) {
            startProxy();
            platform.consumerMode(TOPIC, group, ConsumptionMode.PROXY).writeConfig();
        }
        for (String lane : LANES) {
            deployments.put(lane, deploy(lane));
        }
        CoreMessagingClient plain = track(CoreMessagingClient.start(options("lane-it-sender").build(), registry));
        producer = plain.createProducer(ProducerOptions.defaults());
        plain.subscribe(Subscription.builder(FOLLOW_UPS, followUpGroup).build(), message -> {
            followUps.add(message);
            return ConsumeResult.SUCCESS;
        });
        awaitEveryDeploymentSees(Set.of(Optional.empty(), lane("A"), lane("A.X")));
    }

    /** How the lane group consumes. */
    ConsumptionMode mode() {
        return ConsumptionMode.DIRECT;
    }

    private void startProxy() throws Exception {
        proxy = ProxyFixture.start(platform, APPLICATIONS);
    }

    /**
     * Clients close in parallel: each waits for its consumers' in-flight messages and commits, which adds up one by one.
     * The proxy closes last: closed with them, it would end their streams, and they would try to reconnect while closing.
     */
    @AfterEach
    void closeEverything() {
        List<CompletableFuture<Void>> closing = resources.stream()
                .map(resource -> CompletableFuture.runAsync(() -> closeQuietly(resource)))
                .toList();
        closing.forEach(CompletableFuture::join);
        if (proxy != null) {
            proxy.close();
        }
    }

    private static void closeQuietly(AutoCloseable resource) {
        try {
            resource.close();
        } catch (Exception e) {
            throw new IllegalStateException("closing " + resource + " failed", e);
        }
    }

    @Test
    void eachMessageIsConsumedByTheMostSpecificLaneWithALiveConsumerInItsOwnContext() throws Exception {
        Map<String, String> expectedLaneByKey = new LinkedHashMap<>();
        for (int i = 0; i < 8; i++) {
            send(null, "base-" + i, expectedLaneByKey, "");
            send("A", "a-" + i, expectedLaneByKey, "A");
            send("A.X", "ax-" + i, expectedLaneByKey, "A.X");
            send("A.Y", "ay-" + i, expectedLaneByKey, "A");     // no consumer in A.Y: falls back to A
            send("B", "b-" + i, expectedLaneByKey, "");         // no consumer in B: falls back to the base
        }
        send("A.X", "chain", expectedLaneByKey, "A.X");

        await().atMost(DEADLINE).until(() -> consumedKeys().containsAll(expectedLaneByKey.keySet()));

        for (Deployment deployment : deployments.values()) {
            Set<String> expected = expectedLaneByKey.entrySet().stream().filter(e -> e.getValue().equals(deployment.lane()))
                    .map(Map.Entry::getKey).collect(Collectors.toSet());
            assertThat(deployment.consumed()).as("consumed in lane '%s'", deployment.lane())
                    .extracting(Consumed::key).containsOnlyOnceElementsOf(expected).hasSameSizeAs(expected);
            assertThat(deployment.consumed()).as("the listener runs in the context of its message")
                    .allSatisfy(c -> assertThat(c.context().lane().map(Lane::path).orElse(""))
                            .isEqualTo(laneSentIn(c.key())));
        }
        if (mode() == ConsumptionMode.DIRECT) {
            // The forwarder counts a message once the receiver's answer is back, which may come after the receiver
            // consumed it and counted it received: the two meet, they are not equal at every instant.
            await().atMost(DEADLINE).untilAsserted(() -> assertThat(routed(SdkMetrics.LaneOutcome.FORWARDED))
                    .as("messages the brokers gave to another lane's member")
                    .isPositive().isEqualTo(routed(SdkMetrics.LaneOutcome.RECEIVED)));
        } else {
            assertThat(routed(SdkMetrics.LaneOutcome.FORWARDED)).as("the proxy pushes each lane its own messages").isZero();
        }

        // What a listener sends while handling a lane-A.X message is stamped A.X, with no code of its own.
        await().atMost(DEADLINE).until(() -> !followUps.isEmpty());
        assertThat(followUps.peek().lane()).contains(Lane.of("A.X"));
        assertThat(new String(followUps.peek().body(), StandardCharsets.UTF_8)).isEqualTo("after chain");
    }

    @Test
    void aForwardedMessageIsAcknowledgedOnlyOnceTheLaneSucceeded() throws Exception {
        send("A.X", "fails-once", new LinkedHashMap<>(), "A.X");

        // A.X's listener answers retry-later on the first attempt: the broker's copy stays unacknowledged,
        // wherever the brokers delivered it, and comes again to A.X.
        await().atMost(DEADLINE).until(() -> deployments.get("A.X").consumed().size() >= 2);
        assertThat(deployments.get("A.X").consumed()).extracting(Consumed::key, Consumed::attempt)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("fails-once", 1),
                        org.assertj.core.groups.Tuple.tuple("fails-once", 2));
        assertThat(deployments.get("").consumed()).isEmpty();
        assertThat(deployments.get("A").consumed()).isEmpty();
    }

    @Test
    void whenTheLastConsumerOfALaneLeavesItsMessagesFallBackToTheParentLane() throws Exception {
        Deployment ax = deployments.remove("A.X");
        ax.consumer().close();
        awaitEveryDeploymentSees(Set.of(Optional.empty(), lane("A")));

        Map<String, String> expected = new LinkedHashMap<>();
        for (int i = 0; i < 6; i++) {
            send("A.X", "orphan-" + i, expected, "A");
        }

        await().atMost(DEADLINE).until(() -> consumedKeys().containsAll(expected.keySet()));
        assertThat(deployments.get("A").consumed()).extracting(Consumed::key).containsExactlyInAnyOrderElementsOf(expected.keySet());
        assertThat(deployments.get("").consumed()).isEmpty();
        assertThat(ax.consumed()).isEmpty();
    }

    @Test
    void aChangeOfModeMovesTheLaneMembersInPlaceAndLosesNothing() throws Exception {
        ConsumptionMode other = mode() == ConsumptionMode.DIRECT ? ConsumptionMode.PROXY : ConsumptionMode.DIRECT;
        if (proxy == null) {
            startProxy();
        }
        Map<String, String> expected = new LinkedHashMap<>();
        sendEveryLane("before-", expected);
        platform.consumerMode(TOPIC, group, other).writeConfig();
        sendEveryLane("during-", expected);
        await().atMost(DEADLINE).until(() -> deploymentsConsumingIn(other) == deployments.size());
        assertThat(deployments.values()).allSatisfy(d -> assertThat(d.client().lastReloadRejection()).isEmpty());
        sendEveryLane("after-", expected);

        await().atMost(DEADLINE).until(() -> consumedKeys().containsAll(expected.keySet()));
        for (Deployment deployment : deployments.values()) {
            Set<String> ofItsLane = expected.entrySet().stream().filter(e -> e.getValue().equals(deployment.lane()))
                    .map(Map.Entry::getKey).collect(Collectors.toSet());
            assertThat(deployment.consumed()).as("consumed in lane '%s' across the move to %s", deployment.lane(), other)
                    .extracting(Consumed::key).isSubsetOf(ofItsLane); // both paths run for a moment: a copy may come twice
        }
    }

    /** One message of each lane path the test knows, and where it must be consumed. */
    private void sendEveryLane(String prefix, Map<String, String> expected) throws Exception {
        send(null, prefix + "base", expected, "");
        send("A", prefix + "a", expected, "A");
        send("A.X", prefix + "ax", expected, "A.X");
        send("A.Y", prefix + "ay", expected, "A");
        send("B", prefix + "b", expected, "");
    }

    private long deploymentsConsumingIn(ConsumptionMode mode) {
        return registry.find(SdkMetrics.CONSUMER_MODE).tag(SdkMetrics.TAG_GROUP, group)
                .tag(SdkMetrics.TAG_MODE, mode.name().toLowerCase(java.util.Locale.ROOT)).gauges().stream()
                .filter(g -> g.value() == 1.0).count();
    }

    private Deployment deploy(String lane) throws MessagingException {
        SelfSignedCertificate certificate = SelfSignedCertificate.shared();
        LaneOptions lanes = LaneOptions.builder().lane(lane).listen("127.0.0.1", 0)
                .tls(certificate.certificatePem(), certificate.privateKeyPem(), certificate.certificatePem())
                .token(TOKEN).forwardTimeout(Duration.ofSeconds(10)).membershipRefresh(Duration.ofMillis(300)).build();
        CoreMessagingClient client = track(CoreMessagingClient.start(options("lane-it-" + (lane.isEmpty() ? "base" : lane.replace('.', '_')))
                .lanes(lanes).build(), registry));
        Producer followUpProducer = client.createProducer(ProducerOptions.defaults());
        Queue<Consumed> consumed = new ConcurrentLinkedQueue<>();
        // A retried message comes back after a second (RocketMQ's shortest delay level; the proxy waits 500 ms) instead of
        // the 10 s of RocketMQ's default first retry: the tests judge where and how often a message is consumed, not when.
        Subscription subscription = Subscription.builder(TOPIC, group).retryBackoff(RetryBackoff.fixed(Duration.ofMillis(500))).build();
        Consumer consumer = client.subscribe(subscription, message -> {
            String key = message.keys().get(0);
            consumed.add(new Consumed(key, message.deliveryAttempt(), MessageContext.current(), System.nanoTime()));
            if (key.equals("fails-once") && message.deliveryAttempt() == 1) {
                return ConsumeResult.RETRY_LATER;
            }
            if (key.equals("chain")) {
                try {
                    followUpProducer.send(Message.builder(FOLLOW_UPS).body("after chain".getBytes(StandardCharsets.UTF_8)).build());
                } catch (MessagingException e) {
                    return ConsumeResult.RETRY_LATER;
                }
            }
            return ConsumeResult.SUCCESS;
        });
        return new Deployment(lane, client, consumer, consumed);
    }

    private ClientOptions.Builder options(String application) {
        return ClientOptions.builder(application).configLocation(platform.writeConfig().toString()).proxyToken(ProxyFixture.TOKEN);
    }

    void send(String lane, String key, Map<String, String> expectedLaneByKey, String expectedLane) throws Exception {
        MessageContext context = lane == null ? MessageContext.none() : MessageContext.none().withLane(Lane.of(lane));
        try (MessageContext.Scope ignored = context.enter()) {
            producer.send(Message.builder(TOPIC).keys(key).body(key.getBytes(StandardCharsets.UTF_8)).build());
        }
        expectedLaneByKey.put(key, expectedLane);
    }

    private static String laneSentIn(String key) {
        if (key.startsWith("base-")) {
            return "";
        }
        if (key.startsWith("ax-") || key.equals("chain") || key.equals("fails-once") || key.startsWith("orphan-")) {
            return "A.X";
        }
        return key.startsWith("ay-") ? "A.Y" : key.startsWith("b-") ? "B" : "A";
    }

    private Set<String> consumedKeys() {
        Set<String> keys = new HashSet<>();
        deployments.values().forEach(d -> d.consumed().forEach(c -> keys.add(c.key())));
        return keys;
    }

    private void awaitEveryDeploymentSees(Set<Optional<Lane>> lanes) {
        if (mode() == ConsumptionMode.PROXY) {
            // The proxy knows its consumers' lanes from their Subscribe frames: one stream per deployment, nothing to learn.
            await().atMost(DEADLINE).until(() -> proxy.consumers() == lanes.size());
            return;
        }
        Subscription subscription = Subscription.builder(TOPIC, group).build();
        await().atMost(DEADLINE).untilAsserted(() -> {
            for (Deployment deployment : deployments.values()) {
                assertThat(deployment.client().lanesWithMembers(subscription)).as("lanes seen by '%s'", deployment.lane())
                        .contains(lanes);
            }
        });
    }

    private double routed(SdkMetrics.LaneOutcome outcome) {
        return registry.find(SdkMetrics.LANE_ROUTED).tag(SdkMetrics.TAG_OUTCOME, outcome.tag()).counters().stream()
                .mapToDouble(c -> c.count()).sum();
    }

    private static Optional<Lane> lane(String path) {
        return Optional.of(Lane.of(path));
    }

    private <T extends AutoCloseable> T track(T resource) {
        resources.add(resource);
        return resource;
    }
}

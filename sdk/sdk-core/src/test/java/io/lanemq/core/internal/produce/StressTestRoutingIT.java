package io.lanemq.core.internal.produce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.ClientOptions;
import io.lanemq.api.ConsumeResult;
import io.lanemq.api.Consumer;
import io.lanemq.api.InvalidMessageException;
import io.lanemq.api.Message;
import io.lanemq.api.MessageContext;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.api.ReceivedMessage;
import io.lanemq.api.SendResult;
import io.lanemq.api.Subscription;
import io.lanemq.core.client.CoreMessagingClient;
import io.lanemq.config.ClusterConfig;
import io.lanemq.config.ConsumerConfig;
import io.lanemq.config.DelayConfig;
import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.PlatformConfigWriter;
import io.lanemq.config.StartPosition;
import io.lanemq.config.TopicRoute;
import io.lanemq.core.delay.DelayProtocol;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.testkit.Idc;
import io.lanemq.testkit.RocketMqStack;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * Stress-test traffic on real brokers (two clusters, one per IDC): a send in a stress-test context goes to
 * the shadow topic of its route and production sends to the production topic, as the brokers store them;
 * the group consumes both, and what its listener sends while handling a stress message is stress traffic
 * again; a logic topic that takes no stress traffic refuses it before anything is sent.
 */
@Execution(ExecutionMode.CONCURRENT) // each case has its own topics, group and client: see junit-platform.properties
class StressTestRoutingIT {
    private static final String RUN = Long.toString(System.currentTimeMillis() % 1_000_000_000, 36);
    /** The testkit stack starts and changes in seconds; the defaults are tuned for production. */
    private static final Map<String, String> CLIENT_TUNING = Map.of(
            "rocketmq.heartbeatBrokerIntervalMs", "1000",
            "rocketmq.pollNameServerIntervalMs", "1000",
            "rocketmq.persistConsumerOffsetIntervalMs", "1000");
    private static final String SHADOW = "_SHADOW";
    private static final int EACH = 20;

    private static RocketMqStack stack;
    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    /** Physical topics of this test alone, so what the brokers store is what this test sent. */
    private String orders;
    private String receipts;
    private String refunds;
    private DelayConfig delay;

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private String group;
    private Path configFile;
    private MessagingClient client;

    @BeforeAll
    static void sharedStack() {
        stack = RocketMqStack.shared();
    }

    @BeforeEach
    void startClient() throws Exception {
        String test = RUN + "-" + SEQUENCE.incrementAndGet();
        orders = "orders-" + test;
        receipts = "receipts-" + test;
        refunds = "refunds-" + test;
        delay = new DelayConfig("LANEMQ_DELAY-" + test, "LANEMQ_DELAY_SERVER-" + test, Duration.ofDays(1), Duration.ofSeconds(3));
        for (String topic : List.of(orders, orders + SHADOW, receipts, receipts + SHADOW, refunds, delay.internalTopic())) {
            stack.createTopic(topic, 4);
        }
        group = "billing-" + test;
        configFile = Files.createTempFile(stack.directory(), "stress-platform-", ".yaml");
        closeables.add(() -> Files.deleteIfExists(configFile));
        writeConfig(true);
        client = CoreMessagingClient.start(ClientOptions.builder("stress-it").configLocation(configFile.toString()).build(), meters);
        closeables.add(client);
        for (Idc idc : stack.idcs()) {
            closeables.add(new RawTopics(idc.nameServerAddress()));
        }
    }

    /** Writes the platform configuration, {@code order-paid} taking stress traffic or not; replaced by a rename, as a watched file should be. */
    private void writeConfig(boolean ordersTakeStressTraffic) throws Exception {
        ConsumerConfig fromFirst = new ConsumerConfig(4, 5, StartPosition.EARLIEST);
        PlatformConfig.Builder config = PlatformConfig.builder().delay(delay)
                .topic(stressTested("order-paid", orders, Map.of(group, fromFirst)).withStressTest(ordersTakeStressTraffic))
                .topic(stressTested("receipt", receipts, Map.of()))
                .topic(new LogicTopicConfig("refund", routes(refunds), Map.of()));
        for (Idc idc : stack.idcs()) {
            config.cluster(new ClusterConfig(idc.clusterName(), idc.name(), idc.nameServerAddress(), CLIENT_TUNING));
        }
        Path next = configFile.resolveSibling(configFile.getFileName() + ".next");
        Files.writeString(next, new PlatformConfigWriter().toYaml(config.build()));
        Files.move(next, configFile, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    @AfterEach
    void closeEverything() throws Exception {
        for (int i = closeables.size() - 1; i >= 0; i--) {
            closeables.get(i).close();
        }
        meters.close();
    }

    @Test
    void stressSendsLandOnShadowTopicsProductionSendsOnTheirOwnAndTheGroupConsumesBothInTheirContext() throws Exception {
        Producer producer = client.createProducer(ProducerOptions.defaults());
        Map<String, ReceivedMessage> received = new ConcurrentHashMap<>();
        Map<String, Boolean> stressContextOfListener = new ConcurrentHashMap<>();
        Map<String, SendResult> receiptsSent = new ConcurrentHashMap<>();
        Map<Boolean, AtomicInteger> receiptSends = Map.of(true, new AtomicInteger(), false, new AtomicInteger());
        Consumer consumer = client.subscribe(Subscription.builder("order-paid", group).build(), message -> {
            String key = message.keys().get(0);
            stressContextOfListener.put(key, MessageContext.current().stressTest());
            try {
                // No context handled here: the listener runs in the message's, so a stress message's receipt is stress traffic.
                receiptsSent.putIfAbsent(key, producer.send(Message.builder("receipt").keys("receipt-" + key).body(bytes(key)).build()));
                receiptSends.get(message.stressTest()).incrementAndGet(); // a redelivery sends its receipt again
            } catch (Exception e) {
                return ConsumeResult.RETRY_LATER;
            }
            received.putIfAbsent(key, message);
            return ConsumeResult.SUCCESS;
        });
        closeables.add(consumer);

        List<SendResult> production = send(producer, "order-paid", "production-", EACH);
        List<SendResult> stress;
        try (MessageContext.Scope ignored = MessageContext.none().withStressTest(true).enter()) {
            stress = send(producer, "order-paid", "stress-", EACH);
        }

        assertThat(production).extracting(SendResult::physicalTopic).containsOnly(orders);
        assertThat(stress).extracting(SendResult::physicalTopic).containsOnly(orders + SHADOW);
        assertThat(stress).extracting(SendResult::cluster).containsAnyElementsOf(clusterNames());
        assertThat(storedOnEveryCluster(orders)).isEqualTo(EACH);
        assertThat(storedOnEveryCluster(orders + SHADOW)).isEqualTo(EACH);
        assertThat(keysStoredIn(orders + SHADOW, stress)).allMatch(key -> key.startsWith("stress-")).hasSize(EACH);
        assertThat(keysStoredIn(orders, production)).allMatch(key -> key.startsWith("production-")).hasSize(EACH);

        await().atMost(Duration.ofSeconds(60)).until(() -> received.size() == 2 * EACH);
        received.forEach((key, message) -> {
            boolean isStress = key.startsWith("stress-");
            assertThat(message.stressTest()).as("stressTest() of %s", key).isEqualTo(isStress);
            assertThat(message.physicalTopic()).as("physical topic of %s", key).isEqualTo(isStress ? orders + SHADOW : orders);
            assertThat(message.logicTopic()).isEqualTo("order-paid");
            assertThat(stressContextOfListener.get(key)).as("listener's context of %s", key).isEqualTo(isStress);
            assertThat(receiptsSent.get(key).physicalTopic()).as("receipt of %s", key)
                    .isEqualTo(isStress ? receipts + SHADOW : receipts);
        });
        assertThat(storedOnEveryCluster(receipts + SHADOW)).isEqualTo(receiptSends.get(true).get()).isGreaterThanOrEqualTo(EACH);
        assertThat(storedOnEveryCluster(receipts)).isEqualTo(receiptSends.get(false).get()).isGreaterThanOrEqualTo(EACH);
        assertThat(sends("order-paid", SdkMetrics.Traffic.STRESS)).isEqualTo(EACH);
        assertThat(sends("order-paid", SdkMetrics.Traffic.PRODUCTION)).isEqualTo(EACH);
        assertThat(sends("receipt", SdkMetrics.Traffic.STRESS)).isEqualTo(receiptSends.get(true).get());
    }

    @Test
    void aStressSendToALogicTopicThatTakesNoStressTrafficIsRefusedAndNothingIsSent() throws Exception {
        Producer producer = client.createProducer(ProducerOptions.defaults());
        Message refund = Message.builder("refund").keys("refund-1").body(bytes("refund")).build();

        try (MessageContext.Scope ignored = MessageContext.none().withStressTest(true).enter()) {
            assertThatThrownBy(() -> producer.send(refund))
                    .isInstanceOf(InvalidMessageException.class)
                    .hasMessageContaining("logic topic 'refund' does not take stress-test traffic (topics.refund.stressTest is false)")
                    .hasMessageContaining("nothing was sent");
            CompletableFuture<SendResult> async = producer.sendAsync(refund);
            assertThat(async).failsWithin(Duration.ofSeconds(5)).withThrowableOfType(ExecutionException.class)
                    .withCauseInstanceOf(InvalidMessageException.class);
        }
        // Marked by the message's own property, as the delay server re-sends a delayed stress message: refused too.
        Message marked = Message.builder("refund").keys("refund-2").body(bytes("refund"))
                .property(MessageContext.STRESS_TEST_PROPERTY, "true").build();
        assertThatThrownBy(() -> producer.send(marked)).isInstanceOf(InvalidMessageException.class);

        SendResult productionRefund = producer.send(refund);
        assertThat(productionRefund.physicalTopic()).isEqualTo(refunds);
        assertThat(storedOnEveryCluster(refunds)).as("only the production refund was sent").isEqualTo(1);
        assertThat(meters.get(SdkMetrics.SENDS_REJECTED).tag(SdkMetrics.TAG_LOGIC_TOPIC, "refund")
                .tag(SdkMetrics.TAG_REASON, "InvalidMessageException").counter().count()).isEqualTo(3);
    }

    @Test
    void aDelayedStressSendKeepsItsMarkThroughTheDelayTopicAndItsResendLandsOnTheShadowTopic() throws Exception {
        Producer producer = client.createProducer(ProducerOptions.defaults());
        SendResult scheduled;
        try (MessageContext.Scope ignored = MessageContext.none().withStressTest(true).enter()) {
            scheduled = producer.send(Message.builder("order-paid").keys("delayed-stress").body(bytes("later"))
                    .deliverAt(Instant.now().plus(Duration.ofMinutes(5))).build());
        }

        assertThat(scheduled.physicalTopic()).as("a delayed send goes to the delay servers' topic").isEqualTo(delay.internalTopic());
        MessageExt record = rawTopics(scheduled.cluster()).readAll(delay.internalTopic(), 1).stream()
                .filter(m -> "delayed-stress".equals(m.getKeys())).findFirst().orElseThrow();
        assertThat(record.getProperty(DelayProtocol.PROPERTY_KIND)).isEqualTo(DelayProtocol.KIND_SCHEDULE);
        assertThat(record.getProperty(MessageContext.STRESS_TEST_PROPERTY)).isEqualTo("true");

        // What the delay server does when it is due: re-send with the original properties, in no context.
        SendResult resent = producer.send(Message.builder("order-paid").keys("delayed-stress").body(record.getBody())
                .property(MessageContext.STRESS_TEST_PROPERTY, record.getProperty(MessageContext.STRESS_TEST_PROPERTY)).build());

        assertThat(resent.physicalTopic()).isEqualTo(orders + SHADOW);
        assertThat(keysStoredIn(orders + SHADOW, List.of(resent))).contains("delayed-stress");
    }

    @Test
    void stressTestSwitchedOffAndOnInARunningConfigurationRefusesThenRoutesStressSendsAndTheRunningGroupFollows() throws Exception {
        Producer producer = client.createProducer(ProducerOptions.defaults());
        Map<String, ReceivedMessage> received = new ConcurrentHashMap<>();
        closeables.add(client.subscribe(Subscription.builder("order-paid", group).build(), message -> {
            received.putIfAbsent(message.keys().get(0), message);
            return ConsumeResult.SUCCESS;
        }));
        Message stress = Message.builder("order-paid").keys("stress-after-reload").body(bytes("load"))
                .property(MessageContext.STRESS_TEST_PROPERTY, "true").build();

        writeConfig(false);
        await().atMost(Duration.ofSeconds(10)).until(() -> reloadsApplied() == 1);
        assertThatThrownBy(() -> producer.send(stress)).isInstanceOf(InvalidMessageException.class)
                .hasMessageContaining("topics.order-paid.stressTest is false");

        writeConfig(true);
        await().atMost(Duration.ofSeconds(10)).until(() -> reloadsApplied() == 2);
        SendResult sent = producer.send(stress);

        assertThat(sent.physicalTopic()).isEqualTo(orders + SHADOW);
        await().atMost(Duration.ofSeconds(60)).until(() -> received.containsKey("stress-after-reload"));
        assertThat(received.get("stress-after-reload").stressTest()).isTrue();
        assertThat(storedOnEveryCluster(orders)).as("nothing reached the production topic").isZero();
    }

    private double reloadsApplied() {
        return meters.find(SdkMetrics.CONFIG_RELOADS).tag(SdkMetrics.TAG_OUTCOME, "applied").counters().stream()
                .mapToDouble(Counter::count).sum();
    }

    private static LogicTopicConfig stressTested(String logicTopic, String physical, Map<String, ConsumerConfig> groups) {
        return new LogicTopicConfig(logicTopic, routes(physical), groups).withStressTest(true);
    }

    private static List<TopicRoute> routes(String physical) {
        return stack.idcs().stream().map(idc -> new TopicRoute(idc.clusterName(), physical, 50)).toList();
    }

    private static List<String> clusterNames() {
        return stack.idcs().stream().map(Idc::clusterName).toList();
    }

    private static List<SendResult> send(Producer producer, String logicTopic, String keyPrefix, int count) throws Exception {
        List<SendResult> sent = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            sent.add(producer.send(Message.builder(logicTopic).keys(keyPrefix + i).body(bytes(keyPrefix + i)).build()));
        }
        return sent;
    }

    private long storedOnEveryCluster(String topic) throws Exception {
        long stored = 0;
        for (AutoCloseable closeable : closeables) {
            if (closeable instanceof RawTopics raw) {
                stored += raw.stored(topic);
            }
        }
        return stored;
    }

    /** The keys of the messages {@code topic} holds on the clusters {@code sent} went to, read from the brokers. */
    private List<String> keysStoredIn(String topic, List<SendResult> sent) throws Exception {
        Map<String, Long> byCluster = sent.stream().collect(Collectors.groupingBy(SendResult::cluster, Collectors.counting()));
        List<String> keys = new ArrayList<>();
        for (Map.Entry<String, Long> cluster : byCluster.entrySet()) {
            rawTopics(cluster.getKey()).readAll(topic, cluster.getValue().intValue()).forEach(m -> keys.add(m.getKeys()));
        }
        return keys;
    }

    private RawTopics rawTopics(String cluster) {
        int index = clusterNames().indexOf(cluster);
        return closeables.stream().filter(RawTopics.class::isInstance).map(RawTopics.class::cast).toList().get(index);
    }

    private double sends(String logicTopic, SdkMetrics.Traffic traffic) {
        return meters.find(SdkMetrics.SENDS).tag(SdkMetrics.TAG_LOGIC_TOPIC, logicTopic).tag(SdkMetrics.TAG_TRAFFIC, traffic.tagValue())
                .tag(SdkMetrics.TAG_OUTCOME, "success").counters().stream().mapToDouble(Counter::count).sum();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}

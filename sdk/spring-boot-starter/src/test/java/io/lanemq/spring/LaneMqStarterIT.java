package io.lanemq.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.ClientHealth;
import io.lanemq.api.ClientOptions;
import io.lanemq.api.ConsumeResult;
import io.lanemq.api.Consumer;
import io.lanemq.api.Lane;
import io.lanemq.api.LaneOptions;
import io.lanemq.api.Message;
import io.lanemq.api.MessageContext;
import io.lanemq.api.MessageListener;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.api.ReceivedMessage;
import io.lanemq.api.SendResult;
import io.lanemq.api.Subscription;
import io.lanemq.core.client.CoreMessagingClient;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.localstack.LocalPlatform;
import io.lanemq.testkit.tls.SelfSignedCertificate;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.messaging.handler.annotation.Header;
import org.springframework.messaging.handler.annotation.Payload;

/**
 * A Spring Boot application on a real local dual-IDC stack that only adds the starter and two
 * properties: the injected producer sends, the three kinds of {@code @LaneMqListener} (class,
 * {@code @Bean} method, handler method) receive every message exactly once, an object sent through the template
 * reaches a typed handler method as the object it was, the SDK's meters are in the
 * application's registry, and closing the context closes the subscriptions. An application in lane A, set up by
 * {@code lanemq.lanes.*} alone, shares a group with a base client: each lane's messages reach its own listener.
 */
class LaneMqStarterIT {
    private static final String APPLICATION = "starter-it";
    private static final int MESSAGES = 200;
    private static final int LANE_MESSAGES = 10;
    private static final int TYPED_MESSAGES = 20;
    private static final String LANE_TOKEN = "starter-it-lane-token-0123456789";
    private static LocalPlatform platform;

    @BeforeAll
    static void startStack() {
        platform = LocalPlatform.start();
    }

    @AfterAll
    static void stopStack() {
        if (platform != null) {
            platform.close();
        }
    }

    @Test
    void applicationSendsThroughTheInjectedProducerAndItsListenersReceiveEachMessageOnce() throws Exception {
        String billing = LocalPlatform.unique("billing");
        String audit = LocalPlatform.unique("audit");
        String ledger = LocalPlatform.unique("ledger");
        String typed = LocalPlatform.unique("typed");
        platform.addTopic("order-paid", 4, 50, 50, billing, audit, ledger).addTopic("order-typed", 2, 50, 50, typed);
        Path config = platform.writeConfig();

        long started = System.nanoTime();
        ConfigurableApplicationContext context = run(ListenerApplication.class, config,
                "test.billing-group=" + billing, "test.audit-group=" + audit, "test.ledger-group=" + ledger,
                "test.typed-group=" + typed);
        LaneMqListenerLifecycle lifecycle;
        BillingListener billingListener;
        try {
            long contextMillis = (System.nanoTime() - started) / 1_000_000;
            lifecycle = context.getBean(LaneMqListenerLifecycle.class);
            billingListener = context.getBean(BillingListener.class);
            RecordingListener auditListener = context.getBean("auditListener", RecordingListener.class);
            RecordingListener ledgerListener = context.getBean(Ledger.class).received;
            assertThat(lifecycle.consumers()).extracting(c -> c.subscription().consumerGroup())
                    .containsExactlyInAnyOrder(billing, audit, ledger, typed);

            Producer producer = context.getBean(Producer.class);
            Set<String> sentIds = new HashSet<>();
            long sending = System.nanoTime();
            for (int i = 0; i < MESSAGES; i++) {
                SendResult sent = producer.send(message("paid-" + i));
                sentIds.add(sent.messageId());
            }
            long sendMillis = (System.nanoTime() - sending) / 1_000_000;
            assertThat(sentIds).hasSize(MESSAGES);

            for (RecordingListener listener : List.of(billingListener, auditListener, ledgerListener)) {
                await().atMost(Duration.ofSeconds(40)).until(() -> listener.deliveriesById.size() >= MESSAGES);
                assertThat(listener.deliveriesById.keySet()).isEqualTo(sentIds);
                assertThat(listener.duplicates()).as("messages delivered more than once").isZero();
            }
            long deliveredMillis = (System.nanoTime() - sending) / 1_000_000;

            // Typed: an object through the template, as JSON, to a handler method that takes it back with its headers.
            LaneMqTemplate template = context.getBean(LaneMqTemplate.class);
            List<TypedOrders.OrderPaid> orders = new ArrayList<>();
            for (int i = 0; i < TYPED_MESSAGES; i++) {
                TypedOrders.OrderPaid order = new TypedOrders.OrderPaid(i, "EUR", Instant.ofEpochMilli(1_700_000_000_000L + i));
                orders.add(order);
                template.convertAndSend("order-typed", order, message -> message.keys("order-" + order.orderId()));
            }
            TypedOrders typedOrders = context.getBean(TypedOrders.class);
            await().atMost(Duration.ofSeconds(40)).until(() -> typedOrders.received.size() >= TYPED_MESSAGES);
            assertThat(typedOrders.received.keySet()).as("each order back as the object sent, keyed by its message key")
                    .isEqualTo(orders.stream().map(o -> "order-" + o.orderId()).collect(Collectors.toSet()));
            orders.forEach(order -> assertThat(typedOrders.received.get("order-" + order.orderId())).isEqualTo(order));

            MeterRegistry registry = context.getBean(MeterRegistry.class);
            assertThat(sum(registry, SdkMetrics.SENDS, SdkMetrics.TAG_OUTCOME, "success")).isEqualTo(MESSAGES + TYPED_MESSAGES);
            await().atMost(Duration.ofSeconds(10)).until(() -> sum(registry, SdkMetrics.CONSUMED, SdkMetrics.TAG_GROUP, billing) >= MESSAGES);
            assertThat(sum(registry, SdkMetrics.CONSUMED, SdkMetrics.TAG_GROUP, audit)).isGreaterThanOrEqualTo(MESSAGES);

            // The sends reached both IDCs' real brokers, so the health judges both clusters up.
            Health health = context.getBean("lanemqHealthIndicator", HealthIndicator.class).health();
            assertThat(health.getStatus()).as(health.toString()).isEqualTo(Status.UP);
            assertThat(context.getBean(MessagingClient.class).health().clusters()).isNotEmpty()
                    .allSatisfy(cluster -> assertThat(cluster.state()).as(cluster.toString()).isEqualTo(ClientHealth.ClusterState.UP));
            System.out.printf("LaneMqStarterIT: context up with 3 listeners in %d ms; %d sync sends in %d ms; "
                    + "all delivered to the 3 groups %d ms after the first send%n", contextMillis, MESSAGES, sendMillis, deliveredMillis);
        } finally {
            context.close();
        }

        assertThat(lifecycle.isRunning()).isFalse();
        assertThat(lifecycle.consumers()).isEmpty();
        assertClosedListenerNoLongerConsumes(billing, billingListener);
    }

    @Test
    void closingTheContextLetsTheMessageInHandFinishWhileTheProducerStillWorks() throws Exception {
        String group = LocalPlatform.unique("shipping");
        platform.addTopic("order-shipped", 2, 50, 50, group).addTopic("shipping-log", 2, 50, 50);
        ConfigurableApplicationContext context = run(DrainApplication.class, platform.writeConfig(), "test.shipping-group=" + group);
        SlowForwarder forwarder = context.getBean(SlowForwarder.class);
        try {
            context.getBean(Producer.class).send(Message.builder("order-shipped").body("shipped-1".getBytes(StandardCharsets.UTF_8)).build());
            await().atMost(Duration.ofSeconds(40)).until(() -> forwarder.entered.getCount() == 0);
        } finally {
            CompletableFuture<Void> closing = CompletableFuture.runAsync(context::close);
            try {
                await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(5)).until(() -> !closing.isDone());
            } finally {
                forwarder.finishWork.countDown();
            }
            closing.get(60, TimeUnit.SECONDS);
        }
        assertThat(forwarder.failure).as("forwarding during shutdown").isNull();
        assertThat(forwarder.forwarded).as("the message in hand finished before close returned, and its send succeeded").isNotNull();
        assertThat(forwarder.forwarded.logicTopic()).isEqualTo("shipping-log");
    }

    @Test
    void anApplicationInLaneAConsumesLaneAMessagesAndABaseClientOfTheSameGroupTheRest() throws Exception {
        String group = LocalPlatform.unique("lane-billing");
        platform.addTopic("lane-orders", 4, 50, 50, group);
        Path config = platform.writeConfig();
        SelfSignedCertificate certificate = SelfSignedCertificate.shared();
        Subscription subscription = Subscription.builder("lane-orders", group).build();
        LaneRecorder base = new LaneRecorder();
        SimpleMeterRegistry baseRegistry = new SimpleMeterRegistry();
        LaneOptions baseLane = LaneOptions.builder().listen("127.0.0.1", 0)
                .tls(certificate.certificatePem(), certificate.privateKeyPem(), certificate.certificatePem())
                .token(LANE_TOKEN).forwardTimeout(Duration.ofSeconds(10)).membershipRefresh(Duration.ofMillis(300)).build();

        long started = System.nanoTime();
        try (CoreMessagingClient baseClient = CoreMessagingClient.start(ClientOptions.builder(APPLICATION + "-base")
                     .configLocation("file:" + config).lanes(baseLane).build(), baseRegistry);
             Producer baseProducer = baseClient.createProducer(ProducerOptions.defaults());
             Consumer ignored = baseClient.subscribe(subscription, base);
             ConfigurableApplicationContext context = run(LaneApplication.class, config, "test.lane-group=" + group,
                     "lanemq.lanes.enabled=true", "lanemq.lanes.lane=A",
                     "lanemq.lanes.certificate-chain=" + certificate.certificatePem(),
                     "lanemq.lanes.private-key=" + certificate.privateKeyPem(),
                     "lanemq.lanes.trusted-certificates=" + certificate.certificatePem(),
                     "lanemq.lanes.token=" + LANE_TOKEN, "lanemq.lanes.forward-timeout=10s",
                     "lanemq.lanes.membership-refresh=300ms")) {
            LaneRecorder laneA = context.getBean(LaneRecorder.class);
            CoreMessagingClient laneClient = (CoreMessagingClient) context.getBean(MessagingClient.class);
            Set<Optional<Lane>> bothLanes = Set.of(Optional.empty(), Optional.of(Lane.of("A")));
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                assertThat(baseClient.lanesWithMembers(subscription)).as("lanes the base client sees").contains(bothLanes);
                assertThat(laneClient.lanesWithMembers(subscription)).as("lanes the application sees").contains(bothLanes);
            });
            long membersMillis = (System.nanoTime() - started) / 1_000_000;

            Set<String> baseKeys = new HashSet<>();
            Set<String> laneKeys = new HashSet<>();
            Producer laneProducer = context.getBean(Producer.class);
            for (int i = 0; i < LANE_MESSAGES; i++) {
                baseKeys.add(sendKey(baseProducer, "base-" + i));
                try (MessageContext.Scope inLaneA = MessageContext.none().withLane(Lane.of("A")).enter()) {
                    laneKeys.add(sendKey(baseProducer, "a-" + i));
                }
                // Outside any context the application's producer stamps its instance's lane.
                laneKeys.add(sendKey(laneProducer, "a-own-" + i));
            }

            Set<String> allKeys = new HashSet<>(baseKeys);
            allKeys.addAll(laneKeys);
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                Set<String> consumed = new HashSet<>(base.keys());
                consumed.addAll(laneA.keys());
                return consumed.containsAll(allKeys);
            });
            // Compared as sets: queues still moving to the member that joined last may deliver a message twice
            // (at least once); what matters here is which lane's listener gets each message.
            assertThat(Set.copyOf(laneA.keys())).as("consumed by the application in lane A").isEqualTo(laneKeys);
            assertThat(laneA.contexts).as("its listener runs in the context of its messages")
                    .containsOnly(MessageContext.none().withLane(Lane.of("A")));
            assertThat(Set.copyOf(base.keys())).as("consumed by the base client").isEqualTo(baseKeys);
            int duplicates = laneA.keys().size() + base.keys().size() - allKeys.size();
            System.out.printf("LaneMqStarterIT: both lanes seen by both members %d ms after the base client started; "
                    + "%d messages placed by lane (%d redelivered), forwarded by the base client %.0f, by the application %.0f%n",
                    membersMillis, allKeys.size(), duplicates, forwarded(baseRegistry), forwarded(context.getBean(MeterRegistry.class)));
        }
    }

    private static double forwarded(MeterRegistry registry) {
        return registry.find(SdkMetrics.LANE_ROUTED).tag(SdkMetrics.TAG_OUTCOME, SdkMetrics.LaneOutcome.FORWARDED.tag()).counters().stream()
                .mapToDouble(Counter::count).sum();
    }

    private static String sendKey(Producer producer, String key) throws Exception {
        producer.send(Message.builder("lane-orders").keys(key).body(key.getBytes(StandardCharsets.UTF_8)).build());
        return key;
    }

    private static ConfigurableApplicationContext run(Class<?> application, Path config, String... properties) {
        return new SpringApplicationBuilder(application)
                .web(WebApplicationType.NONE)
                .properties("spring.main.banner-mode=off",
                        "lanemq.application-name=" + APPLICATION,
                        "lanemq.config-location=file:" + config)
                .properties(properties)
                .run();
    }

    /**
     * After the context closed, a new consumer of the same group gets every new message and the
     * closed listener none: its consumers left the group (a live one would keep a share of the queues).
     */
    private void assertClosedListenerNoLongerConsumes(String group, RecordingListener closedListener) throws Exception {
        int deliveredBefore = closedListener.deliveries.get();
        RecordingListener successor = new RecordingListener();
        try (MessagingClient client = platform.client(APPLICATION + "-after");
             Consumer consumer = client.subscribe(Subscription.builder("order-paid", group).build(), successor);
             Producer producer = client.createProducer(ProducerOptions.defaults())) {
            Set<String> laterIds = new HashSet<>();
            for (int i = 0; i < 40; i++) {
                laterIds.add(producer.send(message("later-" + i)).messageId());
            }
            await().atMost(Duration.ofSeconds(40)).until(() -> successor.deliveriesById.keySet().containsAll(laterIds));
        }
        assertThat(closedListener.deliveries.get()).as("deliveries to the closed listener").isEqualTo(deliveredBefore);
    }

    private static Message message(String body) {
        return Message.builder("order-paid").keys(body).body(body.getBytes(StandardCharsets.UTF_8)).build();
    }

    private static double sum(MeterRegistry registry, String name, String tag, String value) {
        return registry.find(name).tag(SdkMetrics.TAG_APPLICATION, APPLICATION).tag(tag, value).counters().stream()
                .mapToDouble(Counter::count).sum();
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class LaneApplication {
        @Bean
        MeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }

        @Bean
        LaneRecorder laneRecorder() {
            return new LaneRecorder();
        }
    }

    /** Records each message's key and the context its listener ran in. */
    @LaneMqListener(topic = "lane-orders", group = "${test.lane-group}")
    static class LaneRecorder implements MessageListener {
        final Queue<String> keys = new ConcurrentLinkedQueue<>();
        final Queue<MessageContext> contexts = new ConcurrentLinkedQueue<>();

        @Override
        public ConsumeResult consume(ReceivedMessage message) {
            keys.add(message.keys().get(0));
            contexts.add(MessageContext.current());
            return ConsumeResult.SUCCESS;
        }

        List<String> keys() {
            return List.copyOf(keys);
        }
    }

    /** The application: the starter is found through its AutoConfiguration.imports entry. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class ListenerApplication {
        @Bean
        MeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }

        @Bean
        BillingListener billingListener() {
            return new BillingListener();
        }

        @Bean
        @LaneMqListener(topic = "order-paid", group = "${test.audit-group}")
        RecordingListener auditListener() {
            return new RecordingListener();
        }

        @Bean
        Ledger ledger() {
            return new Ledger();
        }

        @Bean
        TypedOrders typedOrders() {
            return new TypedOrders();
        }
    }

    /** A typed handler method: the payload as the object sent, the message key from a header. */
    static class TypedOrders {
        record OrderPaid(long orderId, String currency, Instant paidAt) {
        }

        final Map<String, OrderPaid> received = new ConcurrentHashMap<>();

        @LaneMqListener(topic = "order-typed", group = "${test.typed-group}")
        void onOrder(@Payload OrderPaid order, @Header(LaneMqHeaders.KEYS) String key) {
            received.put(key, order);
        }
    }

    /** A plain bean with a listener method. */
    static class Ledger {
        final RecordingListener received = new RecordingListener();

        @LaneMqListener(topic = "order-paid", group = "${test.ledger-group}")
        ConsumeResult record(ReceivedMessage message) {
            return received.consume(message);
        }
    }

    @LaneMqListener(topic = "order-paid", group = "${test.billing-group}")
    static class BillingListener extends RecordingListener {
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class DrainApplication {
        @Bean
        SlowForwarder slowForwarder(ObjectProvider<Producer> producer) {
            return new SlowForwarder(producer);
        }
    }

    /**
     * Works on a message until the test lets it finish, then forwards it through the application's producer:
     * still busy when the context starts closing, so the close must wait for it, with the producer open.
     */
    @LaneMqListener(topic = "order-shipped", group = "${test.shipping-group}")
    static class SlowForwarder implements MessageListener {
        final CountDownLatch entered = new CountDownLatch(1);
        /** The work of the message in hand ends when the test says so, while the context is closing. */
        final CountDownLatch finishWork = new CountDownLatch(1);
        private final ObjectProvider<Producer> producer;
        volatile SendResult forwarded;
        volatile Exception failure;

        SlowForwarder(ObjectProvider<Producer> producer) {
            this.producer = producer;
        }

        @Override
        public ConsumeResult consume(ReceivedMessage message) {
            entered.countDown();
            try {
                if (!finishWork.await(60, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the test never let the work finish");
                }
                forwarded = producer.getObject().send(Message.builder("shipping-log").body(message.body()).build());
                return ConsumeResult.SUCCESS;
            } catch (Exception e) {
                failure = e;
                return ConsumeResult.RETRY_LATER;
            }
        }
    }
}

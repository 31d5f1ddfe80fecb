package io.lanemq.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.Consumer;
import io.lanemq.api.Message;
import io.lanemq.api.MessageListener;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.api.ReceivedMessage;
import io.lanemq.api.SendResult;
import io.lanemq.api.Subscription;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.localstack.LocalPlatform;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * A Spring Boot application on a real local dual-IDC stack that only adds the starter and two
 * properties: the injected producer sends, the three kinds of {@code @LaneMqListener} (class,
 * {@code @Bean} method, handler method) receive every message exactly once, the SDK's meters are in the
 * application's registry, and closing the context closes the subscriptions.
 */
class LaneMqStarterIT {
    private static final String APPLICATION = "starter-it";
    private static final int MESSAGES = 200;
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
        platform.addTopic("order-paid", 4, 50, 50, billing, audit, ledger);
        Path config = platform.writeConfig();

        long started = System.nanoTime();
        ConfigurableApplicationContext context = run(ListenerApplication.class, config,
                "test.billing-group=" + billing, "test.audit-group=" + audit, "test.ledger-group=" + ledger);
        LaneMqListenerLifecycle lifecycle;
        BillingListener billingListener;
        try {
            long contextMillis = (System.nanoTime() - started) / 1_000_000;
            lifecycle = context.getBean(LaneMqListenerLifecycle.class);
            billingListener = context.getBean(BillingListener.class);
            RecordingListener auditListener = context.getBean("auditListener", RecordingListener.class);
            RecordingListener ledgerListener = context.getBean(Ledger.class).received;
            assertThat(lifecycle.consumers()).extracting(c -> c.subscription().consumerGroup())
                    .containsExactlyInAnyOrder(billing, audit, ledger);

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

            MeterRegistry registry = context.getBean(MeterRegistry.class);
            assertThat(sum(registry, SdkMetrics.SENDS, SdkMetrics.TAG_OUTCOME, "success")).isEqualTo(MESSAGES);
            await().atMost(Duration.ofSeconds(10)).until(() -> sum(registry, SdkMetrics.CONSUMED, SdkMetrics.TAG_GROUP, billing) >= MESSAGES);
            assertThat(sum(registry, SdkMetrics.CONSUMED, SdkMetrics.TAG_GROUP, audit)).isGreaterThanOrEqualTo(MESSAGES);
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

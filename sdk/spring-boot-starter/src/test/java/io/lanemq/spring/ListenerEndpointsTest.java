package io.lanemq.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lanemq.api.BatchResult;
import io.lanemq.api.Batching;
import io.lanemq.api.ConsumeResult;
import io.lanemq.api.Deduplication;
import io.lanemq.api.MessageListener;
import io.lanemq.api.ReceivedMessage;
import io.lanemq.api.Subscription;
import io.lanemq.api.Message;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.MapPropertySource;

/** What each kind of {@link LaneMqListener} becomes: its subscription, from the annotation's attributes. */
class ListenerEndpointsTest {

    @Test
    void everyKindOfListenerIsFoundWithItsAttributesAndPlaceholdersResolved() {
        try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext()) {
            context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("test", Map.of("shipments.group", "dispatch")));
            context.register(Listeners.class);
            context.refresh();

            List<ListenerEndpoint> endpoints = ListenerEndpoints.discover(context.getBeanFactory());

            assertThat(endpoints).extracting(ListenerEndpoint::beanName)
                    .containsExactlyInAnyOrder("orderedListener", "factoryListener", "handlers.onRefund");
            Subscription ordered = subscription(endpoints, "orderedListener");
            assertThat(ordered.logicTopic()).isEqualTo("order-paid");
            assertThat(ordered.consumerGroup()).isEqualTo("billing");
            assertThat(ordered.ordered()).isTrue();
            assertThat(ordered.tagFilter()).isEqualTo("paid || refunded");
            Subscription factory = subscription(endpoints, "factoryListener");
            assertThat(factory.consumerGroup()).isEqualTo("dispatch");
            assertThat(factory.ordered()).isFalse();
            assertThat(factory.tagFilter()).isEqualTo("*");
            assertThat(subscription(endpoints, "handlers.onRefund").logicTopic()).isEqualTo("order-refunded");
        }
    }

    @Test
    void handlerMethodIsCalledWithTheMessageAndItsResultReturned() {
        try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext(Listeners.class)) {
            ListenerEndpoint handler = ListenerEndpoints.discover(context.getBeanFactory()).stream()
                    .filter(e -> e.beanName().equals("handlers.onRefund")).findFirst().orElseThrow();

            assertThat(handler.listener().consume(null)).isEqualTo(ConsumeResult.RETRY_LATER);
            assertThat(context.getBean(Handlers.class).calls).isEqualTo(1);
        }
    }

    @Test
    void aTypedHandlersAnnotationOverridesReachItsSubscriptionAndItsErrorHandlerIsCalledOnTheLastAttempt() {
        List<String> handled = new CopyOnWriteArrayList<>();
        try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext()) {
            context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("test", Map.of("test.concurrency", "6")));
            context.registerBean("audit", TypedHandler.class);
            context.registerBean("parking", LaneMqErrorHandler.class, () -> (message, failure) -> {
                handled.add(message.messageId() + ": " + failure.getClass().getSimpleName());
                return LaneMqErrorHandler.Resolution.ACKNOWLEDGE;
            });
            context.refresh();

            ListenerEndpoint endpoint = ListenerEndpoints.discover(context.getBeanFactory()).get(0);

            assertThat(endpoint.subscription().threads()).hasValue(6);
            assertThat(endpoint.subscription().maxDeliveryAttempts()).hasValue(2);
            assertThat(endpoint.subscription().retryBackoff()).as("from retryDelay, retryMultiplier and retryMaxDelay")
                    .contains(io.lanemq.api.RetryBackoff.exponential(Duration.ofSeconds(2), 3, Duration.ofMinutes(1)));
            assertThat(endpoint.subscription().deduplication()).as("from deduplicateWindow and deduplicateBy")
                    .contains(Deduplication.byFirstKey(Duration.ofMinutes(10)));
            Message notJson = Message.builder("order-paid").body("not json".getBytes(StandardCharsets.UTF_8)).build();
            assertThat(endpoint.listener().consume(TestMessage.of(notJson).attempt(3)))
                    .as("unreadable on its last attempt: parked by the handler").isEqualTo(ConsumeResult.SUCCESS);
            assertThat(handled).containsExactly("id-1: MessageConversionException");
        }
    }

    @Test
    void aBatchHandlerGetsTheReadablePayloadsAsAListAndItsResultIsMappedBackToTheBatchsMessages() {
        try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext()) {
            context.registerBean("ledger", BatchHandler.class);
            context.refresh();

            ListenerEndpoint endpoint = ListenerEndpoints.discover(context.getBeanFactory()).get(0);
            List<ReceivedMessage> batch = List.of(json("{\"order\":1}"), json("not json"), json("{\"order\":3}"));
            BatchResult result = endpoint.batchListener().consume(batch);

            assertThat(endpoint.batching()).isEqualTo(Batching.of(16, Duration.ofMillis(50)));
            assertThat(context.getBean(BatchHandler.class).seen).as("the unreadable message is left out of the list")
                    .containsExactly(Map.of("order", 1), Map.of("order", 3));
            assertThat(List.of(result.resultOf(0), result.resultOf(1), result.resultOf(2)))
                    .as("the method retried its list's index 1 (batch index 2); the unreadable one is not retried")
                    .containsExactly(ConsumeResult.SUCCESS, ConsumeResult.DEAD_LETTER, ConsumeResult.RETRY_LATER);
        }
    }

    @Test
    void aBatchListenersErrorHandlerIsCalledOncePerFailedMessageAndItsNotRetryableTypesDeadLetterTheBatch() {
        List<String> handled = new CopyOnWriteArrayList<>();
        try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext()) {
            context.registerBean("ledger", ErrorHandledBatchHandler.class);
            context.registerBean("parking", LaneMqErrorHandler.class, () -> (message, failure) -> {
                handled.add(new String(message.body(), StandardCharsets.UTF_8) + "@" + message.deliveryAttempt() + ": "
                        + failure.getClass().getSimpleName());
                return LaneMqErrorHandler.Resolution.DEAD_LETTER;
            });
            context.refresh();
            ListenerEndpoint endpoint = ListenerEndpoints.discover(context.getBeanFactory()).get(0);

            BatchResult last = endpoint.batchListener().consume(List.of(json("{\"order\":1}").attempt(3),
                    json("{\"order\":2}").attempt(2), json("oops").attempt(1)));
            assertThat(List.of(last.resultOf(0), last.resultOf(1), last.resultOf(2)))
                    .as("retried at its last attempt, retried, unreadable").containsExactly(ConsumeResult.RETRY_LATER,
                            ConsumeResult.RETRY_LATER, ConsumeResult.DEAD_LETTER);
            assertThat(handled).as("per failed message: the last attempt and the unreadable one")
                    .containsExactly("oops@1: MessageConversionException", "{\"order\":1}@3: IllegalStateException");

            handled.clear();
            BatchResult rejected = endpoint.batchListener().consume(List.of(json("{\"order\":-1}"), json("{\"order\":4}")));
            assertThat(List.of(rejected.resultOf(0), rejected.resultOf(1))).as("the method threw a not-retryable failure")
                    .containsOnly(ConsumeResult.DEAD_LETTER);
            assertThat(handled).hasSize(2).allMatch(h -> h.endsWith("IllegalArgumentException"));
        }
    }

    @Test
    void aBackOffWithoutItsDelayFailsTheStartupNamingWhy() {
        try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext()) {
            context.registerBean("wrong", CapWithoutDelay.class);
            context.refresh();
            assertThatThrownBy(() -> ListenerEndpoints.discover(context.getBeanFactory()))
                    .hasMessageContaining("CapWithoutDelay.record").hasMessageContaining("need a retryDelay");
        }
    }

    static class CapWithoutDelay {
        @LaneMqListener(topic = "order-paid", group = "ledger", retryMaxDelay = "PT1M")
        void record(Map<String, Object> payload) {
        }
    }

    @Test
    void aBatchSizeOnAMethodThatDoesNotTakeAListFailsTheStartupNamingWhy() {
        try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext()) {
            context.registerBean("wrong", NotAListBatchHandler.class);
            context.refresh();
            assertThatThrownBy(() -> ListenerEndpoints.discover(context.getBeanFactory()))
                    .hasMessageContaining("NotAListBatchHandler.record").hasMessageContaining("takes one parameter, a List");
        }
    }

    private static TestMessage json(String body) {
        return TestMessage.of(Message.builder("order-paid").body(body.getBytes(StandardCharsets.UTF_8)).build());
    }

    static class BatchHandler {
        final List<Map<String, Object>> seen = new CopyOnWriteArrayList<>();

        @LaneMqListener(topic = "order-paid", group = "ledger", batchSize = "16", batchWait = "PT0.05S")
        BatchResult record(List<Map<String, Object>> payloads) {
            seen.addAll(payloads);
            return BatchResult.retryFrom(1);
        }
    }

    static class NotAListBatchHandler {
        @LaneMqListener(topic = "order-paid", group = "ledger", batchSize = "16")
        void record(Map<String, Object> payload) {
        }
    }

    static class ErrorHandledBatchHandler {
        @LaneMqListener(topic = "order-paid", group = "ledger", batchSize = "16", errorHandler = "parking",
                notRetryable = IllegalArgumentException.class)
        BatchResult record(List<Map<String, Object>> payloads) {
            if (payloads.stream().anyMatch(p -> ((Number) p.get("order")).intValue() < 0)) {
                throw new IllegalArgumentException("no such order");
            }
            return BatchResult.retryOnly(0, 1);
        }
    }

    static class TypedHandler {
        @LaneMqListener(topic = "order-paid", group = "billing", concurrency = "${test.concurrency:3}", maxDeliveryAttempts = "2",
                retryDelay = "PT2S", retryMultiplier = "3", retryMaxDelay = "PT1M",
                errorHandler = "parking", deduplicateWindow = "PT10M", deduplicateBy = Deduplication.Identity.FIRST_KEY)
        void record(Map<String, Object> payload) {
        }
    }

    private static Subscription subscription(List<ListenerEndpoint> endpoints, String beanName) {
        return endpoints.stream().filter(e -> e.beanName().equals(beanName)).findFirst().orElseThrow().subscription();
    }

    @Configuration(proxyBeanMethods = false)
    static class Listeners {
        @Bean
        OrderedListener orderedListener() {
            return new OrderedListener();
        }

        @Bean
        @LaneMqListener(topic = "order-shipped", group = "${shipments.group:none}")
        MessageListener factoryListener() {
            return message -> ConsumeResult.SUCCESS;
        }

        @Bean
        Handlers handlers() {
            return new Handlers();
        }
    }

    @LaneMqListener(topic = "order-paid", group = "billing", ordered = true, tagFilter = "paid || refunded")
    static class OrderedListener implements MessageListener {
        @Override
        public ConsumeResult consume(ReceivedMessage message) {
            return ConsumeResult.SUCCESS;
        }
    }

    static class Handlers {
        int calls;

        @LaneMqListener(topic = "order-refunded", group = "billing")
        ConsumeResult onRefund(ReceivedMessage message) {
            calls++;
            return ConsumeResult.RETRY_LATER;
        }
    }
}

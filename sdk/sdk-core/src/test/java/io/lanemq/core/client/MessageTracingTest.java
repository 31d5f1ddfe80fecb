package io.lanemq.core.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import brave.handler.MutableSpan;
import io.lanemq.api.ClientOptions;
import io.lanemq.api.ConsumeResult;
import io.lanemq.api.Message;
import io.lanemq.api.MessageListener;
import io.lanemq.api.MessagingException;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.api.ReceivedMessage;
import io.lanemq.api.SendFailedException;
import io.lanemq.api.SendResult;
import io.lanemq.api.Subscription;
import io.lanemq.core.observation.LaneMqObservations;
import io.lanemq.support.Ticker;
import io.lanemq.testkit.memory.MemoryBinding;
import io.lanemq.testkit.tracing.RecordingTracing;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client given an observation registry with a real tracer (Brave, W3C propagation) on the in-memory binding: the
 * send's trace context travels in the message's properties, the listener runs in a span that continues it, and
 * failures mark the observation they happened in.
 */
class MessageTracingTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String TOPIC = "orders";

    @TempDir
    Path dir;

    private final MemoryBinding binding = new MemoryBinding();
    private final RecordingTracing tracing = new RecordingTracing();
    private final List<ReceivedMessage> received = new CopyOnWriteArrayList<>();
    /** The span current while the listener ran, per message: the listener's own work joins it. */
    private final Map<String, String> currentSpanInListener = new java.util.concurrent.ConcurrentHashMap<>();
    private CoreMessagingClient client;

    @AfterEach
    void close() {
        if (client != null) {
            client.close();
        }
        binding.close();
        tracing.close();
    }

    private CoreMessagingClient start(ObservationRegistry observations) throws Exception {
        Path config = dir.resolve("platform.yaml");
        Files.writeString(config, """
                clusters:
                  cluster-a: { idc: idc-a, nameServer: "127.0.0.1:1" }
                  cluster-b: { idc: idc-b, nameServer: "127.0.0.1:2" }
                producer: { sendTimeoutMs: 1000, failoverAfterMs: 200 }
                consumer: { threads: 2, maxDeliveryAttempts: 2, startFrom: EARLIEST }
                topics:
                  orders:
                    routes:
                      - { cluster: cluster-a, physicalTopic: orders_a, weight: 50 }
                      - { cluster: cluster-b, physicalTopic: orders_b, weight: 50 }
                    consumerGroups:
                      billing: {}
                """, StandardCharsets.UTF_8);
        client = CoreMessagingClient.start(ClientOptions.builder("tracing-test").configLocation(config.toString()).build(),
                new SimpleMeterRegistry(), observations, Ticker.system(), InstantSource.system(), Optional.of(binding));
        return client;
    }

    private MessageListener recording(ConsumeResult answer) {
        return message -> {
            received.add(message);
            currentSpanInListener.put(message.messageId(), tracing.tracer().currentSpan().context().spanId());
            return answer;
        };
    }

    private static Message message(String body) {
        return Message.builder(TOPIC).body(body.getBytes(StandardCharsets.UTF_8)).build();
    }

    @Test
    void theConsumerSpanIsAChildOfTheProducerSpanThroughTheMessagesTraceparent() throws Exception {
        start(tracing.observations());
        client.subscribe(Subscription.builder(TOPIC, "billing").build(), recording(ConsumeResult.SUCCESS));
        Producer producer = client.createProducer(ProducerOptions.defaults());

        SendResult sync = producer.send(message("sync"));
        SendResult async = producer.sendAsync(message("async")).get();

        await().atMost(WAIT).until(() -> received.size() == 2
                && tracing.spans().stream().filter(s -> s.name().endsWith(" process")).count() == 2);
        for (SendResult sent : List.of(sync, async)) {
            MutableSpan send = tracing.span("orders send", s -> sent.messageId().equals(s.tag(LaneMqObservations.MESSAGE_ID)))
                    .orElseThrow();
            MutableSpan consume = tracing.span("orders process",
                    s -> sent.messageId().equals(s.tag(LaneMqObservations.MESSAGE_ID))).orElseThrow();
            ReceivedMessage delivered = received.stream().filter(m -> m.messageId().equals(sent.messageId())).findFirst()
                    .orElseThrow();

            assertThat(send.kind()).isEqualTo(brave.Span.Kind.PRODUCER);
            assertThat(send.tags()).containsEntry(LaneMqObservations.LOGIC_TOPIC, TOPIC)
                    .containsEntry(LaneMqObservations.CLUSTER, sent.cluster())
                    .containsEntry(LaneMqObservations.OUTCOME, LaneMqObservations.SUCCESS);
            assertThat(delivered.properties()).as("W3C trace context written by the tracer at the send")
                    .containsEntry("traceparent", "00-" + send.traceId() + "-" + send.id() + "-01");
            assertThat(consume.kind()).isEqualTo(brave.Span.Kind.CONSUMER);
            assertThat(consume.traceId()).as("one trace from producer to consumer").isEqualTo(send.traceId());
            assertThat(consume.parentId()).as("the consumer span's parent is the send span").isEqualTo(send.id());
            assertThat(consume.tags()).containsEntry(LaneMqObservations.GROUP, "billing")
                    .containsEntry(LaneMqObservations.CLUSTER, sent.cluster())
                    .containsEntry(LaneMqObservations.OUTCOME, LaneMqObservations.SUCCESS);
            assertThat(currentSpanInListener).as("the listener runs inside its consume span")
                    .containsEntry(sent.messageId(), consume.id());
        }
    }

    @Test
    void aSendInsideAnApplicationSpanContinuesItsTrace() throws Exception {
        start(tracing.observations());
        Producer producer = client.createProducer(ProducerOptions.defaults());
        io.micrometer.tracing.Span request = tracing.tracer().nextSpan().name("http request").start();
        try (io.micrometer.tracing.Tracer.SpanInScope ignored = tracing.tracer().withSpan(request)) {
            producer.send(message("in a request"));
        } finally {
            request.end();
        }

        MutableSpan send = tracing.span("orders send", s -> true).orElseThrow();
        assertThat(send.traceId()).isEqualTo(request.context().traceId());
        assertThat(send.parentId()).isEqualTo(request.context().spanId());
    }

    @Test
    void aListenerThatThrowsMarksItsConsumeSpanWithTheErrorAndTheMessageIsRetried() throws Exception {
        start(tracing.observations());
        IllegalStateException bug = new IllegalStateException("listener bug");
        client.subscribe(Subscription.builder(TOPIC, "billing").build(), message -> {
            received.add(message);
            throw bug;
        });
        SendResult sent = client.createProducer(ProducerOptions.defaults()).send(message("poison"));

        await().atMost(WAIT).until(() -> tracing.spans().stream().filter(s -> s.name().equals("orders process")).count() == 2);
        assertThat(received).as("maxDeliveryAttempts 2: the throw was still a retry").hasSize(2);
        MutableSpan send = tracing.span("orders send", s -> true).orElseThrow();
        for (MutableSpan consume : tracing.spans().stream().filter(s -> s.name().equals("orders process")).toList()) {
            assertThat(consume.error()).isSameAs(bug);
            assertThat(consume.tags()).containsEntry(LaneMqObservations.OUTCOME, LaneMqObservations.ERROR)
                    .containsEntry(LaneMqObservations.MESSAGE_ID, sent.messageId());
            assertThat(consume.parentId()).as("each attempt continues the send's trace").isEqualTo(send.id());
        }
    }

    @Test
    void aRetryLaterAnswerIsAnOutcomeNotAnError() throws Exception {
        start(tracing.observations());
        client.subscribe(Subscription.builder(TOPIC, "billing").build(), recording(ConsumeResult.RETRY_LATER));
        client.createProducer(ProducerOptions.defaults()).send(message("later"));

        await().atMost(WAIT).until(() -> tracing.span("orders process", s -> true).isPresent());
        MutableSpan consume = tracing.span("orders process", s -> true).orElseThrow();
        assertThat(consume.error()).isNull();
        assertThat(consume.tags()).containsEntry(LaneMqObservations.OUTCOME, LaneMqObservations.RETRY);
    }

    @Test
    void aFailedSendMarksItsSendSpanWithTheFailure() throws Exception {
        start(tracing.observations());
        Producer producer = client.createProducer(ProducerOptions.defaults());
        binding.cluster("cluster-a").failSends();
        binding.cluster("cluster-b").failSends();

        assertThatThrownBy(() -> producer.send(message("sync"))).isInstanceOf(SendFailedException.class);
        CompletableFuture<SendResult> async = producer.sendAsync(message("async"));
        assertThatThrownBy(async::get).isInstanceOf(ExecutionException.class).hasCauseInstanceOf(MessagingException.class);

        await().atMost(WAIT).until(() -> tracing.spans().size() == 2);
        assertThat(tracing.spans()).allSatisfy(send -> {
            assertThat(send.name()).isEqualTo("orders send");
            assertThat(send.error()).isInstanceOf(MessagingException.class);
            assertThat(send.tags()).containsEntry(LaneMqObservations.OUTCOME, LaneMqObservations.FAILURE)
                    .containsEntry(LaneMqObservations.CLUSTER, LaneMqObservations.NONE);
        });
    }

    @Test
    void aSendRefusedBeforeTheNetworkEndsItsObservationToo() throws Exception {
        start(tracing.observations());
        Producer producer = client.createProducer(ProducerOptions.defaults());

        assertThatThrownBy(() -> producer.send(Message.builder("no-such-topic").body(new byte[1]).build()))
                .isInstanceOf(MessagingException.class);

        assertThat(tracing.spans()).singleElement().satisfies(send -> {
            assertThat(send.name()).isEqualTo("no-such-topic send");
            assertThat(send.error()).isInstanceOf(MessagingException.class);
        });
    }

    @Test
    void withoutAnObservationRegistryNothingIsAddedToTheMessage() throws Exception {
        start(ObservationRegistry.NOOP);
        client.subscribe(Subscription.builder(TOPIC, "billing").build(), message -> {
            received.add(message);
            return ConsumeResult.SUCCESS;
        });
        client.createProducer(ProducerOptions.defaults()).send(Message.builder(TOPIC).property("source", "test")
                .body(new byte[1]).build());

        await().atMost(WAIT).until(() -> received.size() == 1);
        assertThat(received.get(0).properties()).isEqualTo(Map.of("source", "test"));
        assertThat(tracing.spans()).isEmpty();
    }
}

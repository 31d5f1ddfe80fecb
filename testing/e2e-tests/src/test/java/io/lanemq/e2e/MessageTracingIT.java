package io.lanemq.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import brave.handler.MutableSpan;
import io.lanemq.api.ClientOptions;
import io.lanemq.api.Message;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.api.SendResult;
import io.lanemq.api.Subscription;
import io.lanemq.config.ConsumptionMode;
import io.lanemq.core.client.CoreMessagingClient;
import io.lanemq.core.observation.LaneMqObservations;
import io.lanemq.localstack.LocalPlatform;
import io.lanemq.testkit.RocketMqStack;
import io.lanemq.testkit.tracing.RecordingTracing;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The trace context crossing real brokers: a client with a tracer (Brave, W3C) sends; one group consumes DIRECT and
 * one through a real consumer proxy, and each delivery's consume span continues its send's trace, as a child of
 * the send span, in both modes. It waits for deliveries only, on topics and groups of its own: it may run beside
 * another concurrent class.
 */
@Execution(ExecutionMode.CONCURRENT)
class MessageTracingIT {
    private static final int MESSAGES = 10;

    @Test
    void eachConsumeSpanContinuesItsSendSpanAcrossTheBrokersInDirectAndProxyMode() throws Exception {
        String direct = LocalPlatform.unique("traced-direct");
        String proxied = LocalPlatform.unique("traced-proxy");
        LocalPlatform platform = LocalPlatform.on(RocketMqStack.shared()).addTopic("traced", 2, 50, 50, direct, proxied);
        Received directReceived = new Received();
        Received proxyReceived = new Received();
        try (RecordingTracing tracing = new RecordingTracing(); ProxyFixture proxy = ProxyFixture.start(platform)) {
            platform.consumerMode("traced", proxied, ConsumptionMode.PROXY);
            try (CoreMessagingClient client = CoreMessagingClient.start(ClientOptions.builder(ProxyFixture.APPLICATION)
                    .configLocation(platform.writeConfig().toString()).proxyToken(ProxyFixture.TOKEN).build(),
                    new SimpleMeterRegistry(), tracing.observations());
                 Producer producer = client.createProducer(ProducerOptions.defaults())) {
                client.subscribe(Subscription.builder("traced", direct).build(), directReceived);
                client.subscribe(Subscription.builder("traced", proxied).build(), proxyReceived);
                List<SendResult> sent = new ArrayList<>();
                for (int i = 0; i < MESSAGES; i++) {
                    sent.add(producer.send(Message.builder("traced").body(("m" + i).getBytes(StandardCharsets.UTF_8)).build()));
                }
                List<String> ids = sent.stream().map(SendResult::messageId).toList();

                await().atMost(Duration.ofSeconds(30)).until(() -> directReceived.deliveriesById.keySet().containsAll(ids)
                        && proxyReceived.deliveriesById.keySet().containsAll(ids)
                        && spans(tracing, " process").size() >= 2 * MESSAGES);

                Map<String, MutableSpan> sends = spans(tracing, " send").stream()
                        .collect(Collectors.toMap(s -> s.tag(LaneMqObservations.MESSAGE_ID), Function.identity()));
                assertThat(sends).containsOnlyKeys(ids);
                assertThat(sent).extracting(SendResult::cluster).as("both IDCs' brokers carried some")
                        .contains(platform.idcA().clusterName(), platform.idcB().clusterName());
                for (MutableSpan consume : spans(tracing, " process")) {
                    MutableSpan send = sends.get(consume.tag(LaneMqObservations.MESSAGE_ID));
                    assertThat(send).as("the send of %s", consume.tag(LaneMqObservations.MESSAGE_ID)).isNotNull();
                    assertThat(consume.traceId()).isEqualTo(send.traceId());
                    assertThat(consume.parentId()).isEqualTo(send.id());
                    assertThat(consume.tag(LaneMqObservations.CLUSTER)).isEqualTo(send.tag(LaneMqObservations.CLUSTER));
                }
                assertThat(spans(tracing, " process")).extracting(s -> s.tag(LaneMqObservations.GROUP))
                        .as("each message consumed in each mode, and traced there")
                        .containsOnly(direct, proxied).filteredOn(direct::equals).hasSizeGreaterThanOrEqualTo(MESSAGES);
                assertThat(spans(tracing, " process")).filteredOn(s -> proxied.equals(s.tag(LaneMqObservations.GROUP)))
                        .extracting(s -> s.tag(LaneMqObservations.MESSAGE_ID)).containsAll(ids);
            }
        } finally {
            platform.close();
        }
    }

    private static List<MutableSpan> spans(RecordingTracing tracing, String suffix) {
        return tracing.spans().stream().filter(s -> s.name().equals("traced" + suffix)).toList();
    }
}

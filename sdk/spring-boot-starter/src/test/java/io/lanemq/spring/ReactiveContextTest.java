package io.lanemq.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.api.Lane;
import io.lanemq.api.MessageContext;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.web.reactive.function.client.WebClientAutoConfiguration;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;

/** WebFlux: the inbound filter puts a request's marks in its Reactor context; WebClient sends them on. */
class ReactiveContextTest {
    private static final MessageContext LANE_AX = MessageContext.none().withLane(Lane.of("A.X"));
    private static final ContextHeaders HEADERS = new LaneMqProperties.Context().headers();

    private final Queue<Object> seen = new ConcurrentLinkedQueue<>();
    private final Queue<HttpHeaders> sent = new ConcurrentLinkedQueue<>();

    @Test
    void aRequestsChainCarriesTheContextOfItsHeadersAndAMalformedOneIsRefused() {
        WebTestClient client = WebTestClient.bindToWebHandler(exchange -> Mono.deferContextual(reactor -> {
            seen.add(reactor.getOrDefault(MessageContextAccessor.KEY, "absent"));
            return exchange.getResponse().setComplete();
        })).webFilter(new LaneMqContextWebFilter(HEADERS, new SimpleMeterRegistry())).build();

        client.get().uri("/orders").header("X-LaneMQ-Lane", "A.X").exchange().expectStatus().isOk();
        client.get().uri("/orders").header("X-LaneMQ-Stress-Test", "true").exchange().expectStatus().isOk();
        client.get().uri("/orders").exchange().expectStatus().isOk();
        client.get().uri("/orders").header("X-LaneMQ-Lane", "A..X").exchange().expectStatus().isBadRequest()
                .expectBody(String.class).value(body -> assertThat(body).startsWith("X-LaneMQ-Lane: ").contains("'A..X'"));

        assertThat(seen).as("the base is written too, and a refused request never reaches the handler")
                .containsExactly(LANE_AX, MessageContext.none().withStressTest(true), MessageContext.none());
    }

    @Test
    void webClientSendsTheMarksOfItsReactorContextOrElseOfTheSubscribingThread() {
        WebClient client = recordingClient(WebClient.builder().filter(new ContextHeadersExchangeFilter(HEADERS)));

        client.get().uri("http://billing/a").retrieve().toBodilessEntity()
                .contextWrite(reactor -> reactor.put(MessageContextAccessor.KEY, LANE_AX)).block();
        try (MessageContext.Scope ignored = MessageContext.none().withStressTest(true).enter()) {
            client.get().uri("http://billing/b").retrieve().toBodilessEntity().block();
        }
        client.get().uri("http://billing/c").retrieve().toBodilessEntity().block();

        assertThat(sent).extracting(h -> h.getFirst("X-LaneMQ-Lane"), h -> h.getFirst("X-LaneMQ-Stress-Test"))
                .containsExactly(org.assertj.core.groups.Tuple.tuple("A.X", null), org.assertj.core.groups.Tuple.tuple(null, "true"),
                        org.assertj.core.groups.Tuple.tuple(null, null));
    }

    @Test
    void springBootsWebClientBuilderGetsTheFilterAndAReactiveApplicationTheWebFilter() {
        new ReactiveWebApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(LaneMqPropagationAutoConfiguration.class, WebClientAutoConfiguration.class,
                        LaneMqReactiveContextAutoConfiguration.class))
                .run(context -> {
                    assertThat(context).hasSingleBean(LaneMqContextWebFilter.class);
                    WebClient client = recordingClient(context.getBean(WebClient.Builder.class));
                    try (MessageContext.Scope ignored = LANE_AX.enter()) {
                        client.get().uri("http://billing/a").retrieve().toBodilessEntity().block();
                    }
                    assertThat(sent).extracting(h -> h.getFirst("X-LaneMQ-Lane")).isEqualTo(List.of("A.X"));
                });
    }

    private WebClient recordingClient(WebClient.Builder builder) {
        return builder.exchangeFunction(request -> {
            sent.add(request.headers());
            return Mono.just(ClientResponse.create(HttpStatus.OK).build());
        }).build();
    }
}

package io.lanemq.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.client.match.MockRestRequestMatchers.header;
import static org.springframework.test.web.client.match.MockRestRequestMatchers.headerDoesNotExist;
import static org.springframework.test.web.client.match.MockRestRequestMatchers.requestTo;
import static org.springframework.test.web.client.response.MockRestResponseCreators.withSuccess;

import io.lanemq.api.Lane;
import io.lanemq.api.MessageContext;
import io.micrometer.context.ContextSnapshot;
import io.micrometer.context.ContextSnapshotFactory;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.autoconfigure.web.client.RestClientAutoConfiguration;
import org.springframework.boot.autoconfigure.web.client.RestTemplateAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.web.client.RestTemplateBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.test.web.client.MockRestServiceServer;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;

/** The lane and stress-test marks cross threads (@Async, context snapshots) and leave through RestTemplate / RestClient. */
class LaneMqPropagationTest {
    private static final MessageContext LANE_AX = MessageContext.none().withLane(Lane.of("A.X"));
    private static final MessageContext STRESS = MessageContext.none().withStressTest(true);

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(LaneMqPropagationAutoConfiguration.class, TaskExecutionAutoConfiguration.class,
                    RestTemplateAutoConfiguration.class, RestClientAutoConfiguration.class));

    @Test
    void aContextSnapshotCarriesTheMarksToAnotherThreadAndLeavesItAsItWas() throws Exception {
        ExecutorService other = Executors.newSingleThreadExecutor(r -> new Thread(r, "propagation-test-other"));
        try {
            ContextSnapshot snapshot;
            try (MessageContext.Scope ignored = LANE_AX.enter()) {
                snapshot = ContextSnapshotFactory.builder().build().captureAll();
            }
            MessageContext inside = other.submit(snapshot.wrap(MessageContext::current)).get(10, TimeUnit.SECONDS);
            MessageContext after = other.submit(MessageContext::current).get(10, TimeUnit.SECONDS);

            assertThat(inside).as("registered through META-INF/services, no code of the application's").isEqualTo(LANE_AX);
            assertThat(after).as("the pool thread is back in the base afterwards").isEqualTo(MessageContext.none());
        } finally {
            other.shutdownNow();
        }
    }

    @Test
    void anAsyncMethodRunsInTheCallersLane() {
        runner.withUserConfiguration(AsyncConfig.class).run(context -> {
            CompletableFuture<MessageContext> seen;
            try (MessageContext.Scope ignored = LANE_AX.enter()) {
                seen = context.getBean(AsyncWork.class).currentContext();
            }
            assertThat(seen.get(10, TimeUnit.SECONDS)).isEqualTo(LANE_AX);
            assertThat(context.getBean(AsyncWork.class).currentContext().get(10, TimeUnit.SECONDS))
                    .as("called outside any lane: the base").isEqualTo(MessageContext.none());
        });
    }

    @Test
    void restTemplateAndRestClientSendTheMarksOnlyWhenThereAreAny() {
        runner.run(context -> {
            RestTemplate restTemplate = context.getBean(RestTemplateBuilder.class).build();
            MockRestServiceServer server = MockRestServiceServer.bindTo(restTemplate).build();
            server.expect(requestTo("http://billing/lane")).andExpect(header("X-LaneMQ-Lane", "A.X"))
                    .andExpect(headerDoesNotExist("X-LaneMQ-Stress-Test")).andRespond(withSuccess());
            server.expect(requestTo("http://billing/base")).andExpect(headerDoesNotExist("X-LaneMQ-Lane"))
                    .andExpect(headerDoesNotExist("X-LaneMQ-Stress-Test")).andRespond(withSuccess());
            try (MessageContext.Scope ignored = LANE_AX.enter()) {
                restTemplate.getForObject("http://billing/lane", String.class);
            }
            restTemplate.getForObject("http://billing/base", String.class);
            server.verify();

            RestClient.Builder builder = context.getBean(RestClient.Builder.class);
            MockRestServiceServer clientServer = MockRestServiceServer.bindTo(builder).build();
            clientServer.expect(requestTo("http://billing/stress")).andExpect(header("X-LaneMQ-Stress-Test", "true"))
                    .andExpect(headerDoesNotExist("X-LaneMQ-Lane")).andRespond(withSuccess());
            RestClient client = builder.build();
            try (MessageContext.Scope ignored = STRESS.enter()) {
                client.get().uri("http://billing/stress").retrieve().toBodilessEntity();
            }
            clientServer.verify();
        });
    }

    @Test
    void offWithTheContextProperty() {
        runner.withPropertyValues("lanemq.context.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(ContextHeadersInterceptor.class)
                        .doesNotHaveBean("laneMqTaskDecorator"));
    }

    @Configuration(proxyBeanMethods = false)
    @EnableAsync
    static class AsyncConfig {
        @Bean
        AsyncWork asyncWork() {
            return new AsyncWork();
        }
    }

    static class AsyncWork {
        @Async
        public CompletableFuture<MessageContext> currentContext() {
            return CompletableFuture.completedFuture(MessageContext.current());
        }
    }
}

package io.lanemq.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.Message;
import io.lanemq.api.Producer;
import io.lanemq.api.ReceivedMessage;
import io.lanemq.spring.LaneMqListenerRegistry.Listener;
import io.lanemq.spring.LaneMqListenerRegistry.State;
import io.lanemq.testkit.memory.MemoryBinding;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Listener control at run time: the registry's pause, resume, stop and start by id, {@code autoStartup}, and the
 * {@code lanemqlisteners} Actuator endpoint, read-only unless its control is turned on. On the in-memory binding.
 */
class ListenerControlTest {
    private static final String PLATFORM = """
            clusters:
              cluster-a: { idc: idc-a, nameServer: "127.0.0.1:1" }
              cluster-b: { idc: idc-b, nameServer: "127.0.0.1:1" }
            topics:
              order-paid:
                routes:
                  - { cluster: cluster-a, physicalTopic: order_paid_a, weight: 50 }
                  - { cluster: cluster-b, physicalTopic: order_paid_b, weight: 50 }
                consumerGroups:
                  billing: { threads: 2, startFrom: EARLIEST }
                  audit: { threads: 2, startFrom: EARLIEST }
            """;
    private static final Duration WAIT = Duration.ofSeconds(10);

    @TempDir
    Path directory;
    private final MemoryBinding binding = new MemoryBinding();
    private ApplicationContextRunner runner;

    @BeforeEach
    void writePlatform() throws IOException {
        Path platform = Files.writeString(directory.resolve("platform.yaml"), PLATFORM);
        runner = new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(LaneMqAutoConfiguration.class, LaneMqListenersEndpointAutoConfiguration.class))
                .withPropertyValues("lanemq.application-name=control-test", "lanemq.config-location=file:" + platform,
                        // Actuator creates an endpoint's bean only where it is exposed.
                        "management.endpoints.web.exposure.include=" + LaneMqListenersEndpoint.ID)
                .withBean(MemoryBinding.class, () -> binding);
    }

    @AfterEach
    void closeBinding() {
        binding.close();
    }

    @Test
    void theRegistryListsEveryListenerByIdAndOneWithAutoStartupFalseStaysStopped() {
        runner.withUserConfiguration(Listeners.class).run(context -> {
            LaneMqListenerRegistry registry = context.getBean(LaneMqListenerRegistry.class);

            assertThat(registry.listeners()).as("by id").containsExactly(
                    new Listener("audit", "order-paid", "audit", State.STOPPED, false),
                    new Listener("billing", "order-paid", "billing", State.RUNNING, true));
            assertThat(binding.cluster("cluster-a").openConsumers()).extracting(spec -> spec.consumerGroup())
                    .as("only the automatic listener subscribed").containsExactly("billing");
        });
    }

    @Test
    void aPausedListenerReceivesNothingAndAfterResumeGetsWhatWasSentMeanwhileOnce() {
        runner.withUserConfiguration(Listeners.class).run(context -> {
            LaneMqListenerRegistry registry = context.getBean(LaneMqListenerRegistry.class);
            Recorded recorded = context.getBean(Recorded.class);

            assertThat(registry.pause("billing").state()).isEqualTo(State.PAUSED);
            send(context.getBean(Producer.class), 10);
            await().during(Duration.ofMillis(500)).atMost(WAIT).until(recorded.billing::isEmpty);

            assertThat(registry.resume("billing").state()).isEqualTo(State.RUNNING);
            await().atMost(WAIT).until(() -> recorded.billing.size() == 10);
            assertThat(recorded.billing).extracting(ReceivedMessage::messageId).doesNotHaveDuplicates();
        });
    }

    @Test
    void aStoppedListenerLeavesItsGroupAndAStartedOneConsumesWhatWaited() {
        runner.withUserConfiguration(Listeners.class).run(context -> {
            LaneMqListenerRegistry registry = context.getBean(LaneMqListenerRegistry.class);
            Recorded recorded = context.getBean(Recorded.class);

            assertThat(registry.stop("billing").state()).isEqualTo(State.STOPPED);
            assertThat(binding.cluster("cluster-a").openConsumers()).as("closed").isEmpty();
            send(context.getBean(Producer.class), 4);

            assertThat(registry.start("billing").state()).isEqualTo(State.RUNNING);
            assertThat(registry.start("audit").state()).isEqualTo(State.RUNNING);
            await().atMost(WAIT).until(() -> recorded.billing.size() == 4 && recorded.audit.size() == 4);
        });
    }

    @Test
    void anUnknownIdIsRefusedNamingTheListenersAndAStoppedListenerCannotBePaused() {
        runner.withUserConfiguration(Listeners.class).run(context -> {
            LaneMqListenerRegistry registry = context.getBean(LaneMqListenerRegistry.class);

            assertThatThrownBy(() -> registry.pause("biling")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("no LaneMQ listener 'biling'; the listeners are [audit, billing]");
            assertThatThrownBy(() -> registry.pause("audit")).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("'audit': it is stopped; start it first");
        });
    }

    @Test
    void twoListenersWithOneIdFailTheStartNamingBoth() {
        runner.withUserConfiguration(SameId.class).run(context -> assertThat(context).hasFailed().getFailure()
                .hasMessageContaining("@LaneMqListener id 'twice' is given twice")
                .hasMessageContaining("sameId.first").hasMessageContaining("sameId.second"));
    }

    @Test
    void aBadAutoStartupFailsTheStartNamingTheMethod() {
        runner.withUserConfiguration(BadAutoStartup.class).run(context -> assertThat(context).hasFailed().getFailure()
                .hasMessageContaining("autoStartup must be true or false, was 'sometimes'")
                .hasMessageContaining("onPaid"));
    }

    @Test
    void theEndpointIsReadOnlyByDefault() {
        runner.withUserConfiguration(Listeners.class).run(context -> {
            assertThat(context).hasSingleBean(LaneMqListenersEndpoint.class).doesNotHaveBean(LaneMqListenersControlEndpoint.class);
            LaneMqListenersEndpoint endpoint = context.getBean(LaneMqListenersEndpoint.class);

            assertThat(endpoint.listeners()).extracting(Listener::id, Listener::state)
                    .containsExactly(org.assertj.core.api.Assertions.tuple("audit", State.STOPPED),
                            org.assertj.core.api.Assertions.tuple("billing", State.RUNNING));
            assertThatThrownBy(() -> endpoint.listener("nobody")).isInstanceOf(InvalidEndpointRequestException.class)
                    .hasMessageContaining("the listeners are [audit, billing]");
        });
    }

    @Test
    void withControlOnTheEndpointPausesAndResumesAndRefusesOtherActions() {
        runner.withUserConfiguration(Listeners.class).withPropertyValues(LaneMqListenersEndpointAutoConfiguration.CONTROL_PROPERTY + "=true")
                .run(context -> {
                    LaneMqListenersControlEndpoint endpoint = context.getBean(LaneMqListenersControlEndpoint.class);

                    assertThat(endpoint.control("billing", "pause").state()).isEqualTo(State.PAUSED);
                    assertThat(context.getBean(LaneMqListenerRegistry.class).listener("billing").state()).isEqualTo(State.PAUSED);
                    assertThat(endpoint.control("billing", "RESUME").state()).isEqualTo(State.RUNNING);
                    assertThatThrownBy(() -> endpoint.control("billing", "stop")).isInstanceOf(InvalidEndpointRequestException.class)
                            .hasMessage("action must be 'pause' or 'resume', was 'stop'");
                    assertThatThrownBy(() -> endpoint.control("audit", "pause")).isInstanceOf(InvalidEndpointRequestException.class)
                            .hasMessageContaining("it is stopped");
                });
    }

    @Test
    void withoutActuatorOnlyTheRegistryIsThere() {
        runner.withUserConfiguration(Listeners.class)
                .withClassLoader(new org.springframework.boot.test.context.FilteredClassLoader(
                        org.springframework.boot.actuate.endpoint.annotation.Endpoint.class))
                .run(context -> assertThat(context).hasSingleBean(LaneMqListenerRegistry.class)
                        .doesNotHaveBean(LaneMqListenersEndpoint.class));
    }

    private static void send(Producer producer, int count) throws Exception {
        for (int i = 0; i < count; i++) {
            producer.send(Message.builder("order-paid").body(("paid-" + i).getBytes(StandardCharsets.UTF_8)).build());
        }
    }

    static final class Recorded {
        final List<ReceivedMessage> billing = new CopyOnWriteArrayList<>();
        final List<ReceivedMessage> audit = new CopyOnWriteArrayList<>();

        @LaneMqListener(id = "billing", topic = "order-paid", group = "billing")
        void onPaid(ReceivedMessage message) {
            billing.add(message);
        }

        @LaneMqListener(id = "audit", topic = "order-paid", group = "audit", autoStartup = "${test.audit.auto:false}")
        void onAudit(ReceivedMessage message) {
            audit.add(message);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Listeners {
        @Bean
        Recorded recorded() {
            return new Recorded();
        }
    }

    static final class TwoWithOneId {
        @LaneMqListener(id = "twice", topic = "order-paid", group = "billing")
        void first(ReceivedMessage message) {
        }

        @LaneMqListener(id = "twice", topic = "order-paid", group = "audit")
        void second(ReceivedMessage message) {
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class SameId {
        @Bean
        TwoWithOneId sameId() {
            return new TwoWithOneId();
        }
    }

    static final class SometimesStarting {
        @LaneMqListener(topic = "order-paid", group = "billing", autoStartup = "sometimes")
        void onPaid(ReceivedMessage message) {
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class BadAutoStartup {
        @Bean
        SometimesStarting sometimes() {
            return new SometimesStarting();
        }
    }
}

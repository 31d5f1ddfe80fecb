package io.lanemq.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lanemq.api.Message;
import io.lanemq.api.MessagingException;
import io.lanemq.api.Producer;
import io.lanemq.core.observation.LaneMqObservations;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.observation.ObservationAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The client is built with the application's {@link io.micrometer.observation.ObservationRegistry}: a send is observed there (here one refused
 * before the network, so no broker is needed; the SDK's own tests follow the trace context to the consumer).
 */
class LaneMqObservationTest {
    @TempDir
    Path directory;
    private ApplicationContextRunner runner;

    @BeforeEach
    void writePlatform() throws Exception {
        Path platform = Files.writeString(directory.resolve("platform.yaml"), LaneMqAutoConfigurationTest.PLATFORM);
        runner = new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(LaneMqAutoConfiguration.class))
                .withPropertyValues("lanemq.application-name=starter-test", "lanemq.config-location=file:" + platform);
    }

    /**
     * One context (a producer against an unreachable name server costs about 7 s to start and close): Actuator's
     * registry, with an application's handler that Actuator registers on it.
     */
    @Test
    void sendsAreObservedOnActuatorsObservationRegistryWhichIsBuiltBeforeTheClient() {
        List<Observation.Context> seen = new CopyOnWriteArrayList<>();
        ObservationHandler<Observation.Context> recording = new ObservationHandler<>() {
            @Override
            public void onStop(Observation.Context context) {
                seen.add(context);
            }

            @Override
            public boolean supportsContext(Observation.Context context) {
                return true;
            }
        };
        runner.withConfiguration(AutoConfigurations.of(ObservationAutoConfiguration.class, MetricsAutoConfiguration.class,
                        CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class))
                .withBean("recordingHandler", ObservationHandler.class, () -> recording)
                .run(context -> {
                    assertThatThrownBy(() -> context.getBean(Producer.class).send(Message.builder("no-such-topic")
                            .body(new byte[1]).build())).isInstanceOf(MessagingException.class);

                    assertThat(seen).singleElement().satisfies(send -> {
                        assertThat(send.getName()).isEqualTo(LaneMqObservations.SEND);
                        assertThat(send.getError()).isInstanceOf(MessagingException.class);
                    });
                    Timer sends = context.getBean(MeterRegistry.class).find(LaneMqObservations.SEND)
                            .tag(LaneMqObservations.LOGIC_TOPIC, "no-such-topic")
                            .tag(LaneMqObservations.OUTCOME, LaneMqObservations.FAILURE).timer();
                    assertThat(sends).as("Actuator's meter handler: each observation is a timer too").isNotNull();
                    assertThat(sends.count()).isEqualTo(1);
                });
    }
}

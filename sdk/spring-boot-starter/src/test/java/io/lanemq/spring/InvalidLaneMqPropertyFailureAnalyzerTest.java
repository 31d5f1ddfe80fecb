package io.lanemq.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** A Spring Boot application missing a LaneMQ property fails with a report that names it. */
@ExtendWith(OutputCaptureExtension.class)
class InvalidLaneMqPropertyFailureAnalyzerTest {

    /** Spring Boot finds the analyzer through META-INF/spring.factories and prints its report. */
    @Test
    void startupFailureIsReportedNamingTheMissingProperty(CapturedOutput output) {
        Throwable failure = catchThrowable(() -> new SpringApplicationBuilder(EmptyApplication.class)
                .web(WebApplicationType.NONE)
                .properties("spring.main.banner-mode=off", "lanemq.config-location=file:/etc/lanemq/platform.yaml")
                .run()
                .close());

        FailureAnalysis analysis = new InvalidLaneMqPropertyFailureAnalyzer().analyze(failure);
        assertThat(analysis.getDescription()).startsWith("LaneMQ cannot start: lanemq.application-name is required");
        assertThat(analysis.getAction()).contains("'lanemq.application-name'");
        assertThat(output).contains("APPLICATION FAILED TO START").contains(analysis.getDescription()).contains(analysis.getAction());
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class EmptyApplication {
    }
}

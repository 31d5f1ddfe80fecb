package io.lanemq.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;

class InvalidConsolePropertyFailureAnalyzerTest {
    @Test
    void aMissingKeyStoreIsReportedAsTheOnePropertyToSetNotItsNestedCauses() throws Exception {
        ConsoleProperties properties = new ConsoleProperties();
        properties.setTlsKeyStore(Path.of("/nonexistent/console.p12"));
        InvalidConsolePropertyException missing = org.assertj.core.api.Assertions.catchThrowableOfType(
                InvalidConsolePropertyException.class,
                () -> TransportSecurity.decide(properties, InetAddress.getLoopbackAddress(), name -> null));
        Throwable nested = new BeanCreationException("consoleWebServerFactoryCustomizer", new IllegalStateException("wrapped", missing));

        String registered = new String(getClass().getResourceAsStream("/META-INF/spring.factories").readAllBytes(),
                java.nio.charset.StandardCharsets.UTF_8);
        assertThat(registered).as("registered for Boot").contains(FailureAnalyzer.class.getName() + "=\\\n"
                + InvalidConsolePropertyFailureAnalyzer.class.getName());
        FailureAnalysis analysis = new InvalidConsolePropertyFailureAnalyzer().analyze(nested);

        assertThat(analysis.getDescription()).isEqualTo("The console's setting lanemq.console.tls-key-store is not a readable file: "
                + "/nonexistent/console.p12");
        assertThat(analysis.getAction()).startsWith("Set lanemq.console.tls-key-store (a --lanemq.console.tls-key-store=... argument");
    }
}

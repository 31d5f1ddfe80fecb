package io.lanemq.console;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns a missing or wrong {@code lanemq.console.*} value (a TLS key store that is not there, plain HTTP off
 * loopback) into Boot's short "APPLICATION FAILED TO START" report naming the property and what to set, instead of
 * four nested bean-creation causes. Registered in {@code META-INF/spring.factories}.
 */
public final class InvalidConsolePropertyFailureAnalyzer extends AbstractFailureAnalyzer<InvalidConsolePropertyException> {
    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidConsolePropertyException cause) {
        return new FailureAnalysis("The console's setting " + cause.getMessage(),
                "Set " + cause.property() + " (a --" + cause.property() + "=... argument, application.properties or the"
                        + " environment); services/platform-console/README.md lists every lanemq.console property.",
                cause);
    }
}

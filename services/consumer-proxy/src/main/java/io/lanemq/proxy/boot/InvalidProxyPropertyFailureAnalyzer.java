package io.lanemq.proxy.boot;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns a bad {@code lanemq.proxy.*} value into Boot's short "APPLICATION FAILED TO START" report (the property,
 * the problem, what to change) instead of a bean-creation stack trace. Registered in {@code META-INF/spring.factories}.
 */
public final class InvalidProxyPropertyFailureAnalyzer extends AbstractFailureAnalyzer<InvalidProxyPropertyException> {
    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidProxyPropertyException cause) {
        return new FailureAnalysis("The consumer proxy's setting " + cause.getMessage(),
                "Correct " + cause.property() + " (a --" + cause.property() + "=... argument, application.properties or"
                        + " the environment); services/consumer-proxy/README.md lists every lanemq.proxy property.",
                cause);
    }
}

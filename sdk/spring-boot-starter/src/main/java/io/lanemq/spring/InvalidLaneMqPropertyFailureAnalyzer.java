package io.lanemq.spring;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns a failed startup caused by a bad {@code lanemq.*} property into Spring Boot's short
 * "APPLICATION FAILED TO START" report (description and action) instead of a bean-creation stack trace.
 */
class InvalidLaneMqPropertyFailureAnalyzer extends AbstractFailureAnalyzer<InvalidLaneMqPropertyException> {
    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidLaneMqPropertyException cause) {
        return new FailureAnalysis("LaneMQ cannot start: " + cause.getMessage(),
                "Set or correct the property '" + cause.property() + "' in the application's configuration.", cause);
    }
}

package io.lanemq.spring;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Requests refused for a malformed message-context header, counted per header in
 * {@value StarterMetrics#CONTEXT_REJECTED}: one place for the servlet and the WebFlux filter.
 */
final class ContextRejections {
    private static final Logger log = LoggerFactory.getLogger(ContextRejections.class);

    private final Map<String, Counter> byHeader;

    ContextRejections(ContextHeaders headers, MeterRegistry registry) {
        this.byHeader = Map.of(headers.laneHeader(), counter(registry, headers.laneHeader()),
                headers.stressTestHeader(), counter(registry, headers.stressTestHeader()));
    }

    private static Counter counter(MeterRegistry registry, String header) {
        return Counter.builder(StarterMetrics.CONTEXT_REJECTED).tag(StarterMetrics.TAG_HEADER, header)
                .description("HTTP requests refused because a LaneMQ message-context header was malformed").register(registry);
    }

    /** Counts the refusal; the caller's mistake, answered 400, is not worth more than a debug line in the service's log. */
    void refused(String method, String path, ContextHeaders.MalformedHeaderException e) {
        byHeader.get(e.header()).increment();
        log.debug("refused {} {}: {}", method, path, e.getMessage());
    }
}

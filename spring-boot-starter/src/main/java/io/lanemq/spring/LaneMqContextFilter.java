package io.lanemq.spring;

import io.lanemq.api.MessageContext;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Runs each HTTP request in the {@link MessageContext} its headers name (see {@link ContextHeaders}), so the
 * messages the request sends carry the caller's lane and stress-test mark. The context is entered before the
 * rest of the chain and restored after it on the request's thread; work the request hands to other threads
 * takes the context along with {@link MessageContext#wrap}.
 *
 * <p>A malformed header answers 400 with the header and the problem, and counts in
 * {@value StarterMetrics#CONTEXT_REJECTED}: serving it in the base would put a lane's or a stress test's
 * traffic into production.
 */
public final class LaneMqContextFilter extends OncePerRequestFilter {
    private static final Logger log = LoggerFactory.getLogger(LaneMqContextFilter.class);

    private final ContextHeaders headers;
    private final Map<String, Counter> rejected;

    LaneMqContextFilter(ContextHeaders headers, MeterRegistry registry) {
        this.headers = headers;
        this.rejected = Map.of(headers.laneHeader(), rejectedCounter(registry, headers.laneHeader()),
                headers.stressTestHeader(), rejectedCounter(registry, headers.stressTestHeader()));
    }

    private static Counter rejectedCounter(MeterRegistry registry, String header) {
        return Counter.builder(StarterMetrics.CONTEXT_REJECTED).tag(StarterMetrics.TAG_HEADER, header)
                .description("HTTP requests refused because a LaneMQ message-context header was malformed").register(registry);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        MessageContext context;
        try {
            context = headers.read(name -> Collections.list(request.getHeaders(name)));
        } catch (ContextHeaders.MalformedHeaderException e) {
            reject(request, response, e);
            return;
        }
        try (MessageContext.Scope ignored = context.enter()) {
            chain.doFilter(request, response);
        }
    }

    private void reject(HttpServletRequest request, HttpServletResponse response, ContextHeaders.MalformedHeaderException e)
            throws IOException {
        rejected.get(e.header()).increment();
        // The caller's mistake, answered and counted; not worth more than a debug line in the service's log.
        log.debug("refused {} {}: {}", request.getMethod(), request.getRequestURI(), e.getMessage());
        response.setStatus(HttpServletResponse.SC_BAD_REQUEST);
        response.setContentType("text/plain");
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        // The message quotes the caller's value: plain text that no browser may sniff as anything else.
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.getWriter().write(e.getMessage());
    }
}

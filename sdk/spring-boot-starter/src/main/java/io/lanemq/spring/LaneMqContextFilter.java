package io.lanemq.spring;

import io.lanemq.api.MessageContext;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
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

    private final ContextHeaders headers;
    private final ContextRejections rejections;

    LaneMqContextFilter(ContextHeaders headers, MeterRegistry registry) {
        this.headers = headers;
        this.rejections = new ContextRejections(headers, registry);
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
        rejections.refused(request.getMethod(), request.getRequestURI(), e);
        response.setStatus(HttpServletResponse.SC_BAD_REQUEST);
        response.setContentType("text/plain");
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        // The message quotes the caller's value: plain text that no browser may sniff as anything else.
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.getWriter().write(e.getMessage());
    }
}

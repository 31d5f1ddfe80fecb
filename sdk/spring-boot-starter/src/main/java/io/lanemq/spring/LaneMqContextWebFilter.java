package io.lanemq.spring;

import io.lanemq.api.MessageContext;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import org.springframework.core.Ordered;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * The WebFlux twin of {@link LaneMqContextFilter}: a request's {@link MessageContext} from its headers, written into
 * the Reactor context of the rest of the chain under {@link MessageContextAccessor#KEY}. Reactive code on any thread
 * finds it there; with Reactor's automatic context propagation ({@code spring.reactor.context-propagation=auto})
 * {@link MessageContext#current()} returns it in handlers too, so a producer's send is stamped, and the
 * {@code WebClient} filter reads it for the next call either way. A malformed header answers 400 and counts in
 * {@value StarterMetrics#CONTEXT_REJECTED}, as in a servlet application.
 */
public final class LaneMqContextWebFilter implements WebFilter, Ordered {

    private final ContextHeaders headers;
    private final ContextRejections rejections;

    LaneMqContextWebFilter(ContextHeaders headers, MeterRegistry registry) {
        this.headers = headers;
        this.rejections = new ContextRejections(headers, registry);
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        MessageContext context;
        try {
            context = headers.read(name -> exchange.getRequest().getHeaders().getOrEmpty(name));
        } catch (ContextHeaders.MalformedHeaderException e) {
            rejections.refused(String.valueOf(exchange.getRequest().getMethod()), exchange.getRequest().getPath().value(), e);
            ServerHttpResponse response = exchange.getResponse();
            response.setStatusCode(HttpStatus.BAD_REQUEST);
            response.getHeaders().setContentType(new MediaType(MediaType.TEXT_PLAIN, StandardCharsets.UTF_8));
            response.getHeaders().set("X-Content-Type-Options", "nosniff");
            DataBuffer body = response.bufferFactory().wrap(e.getMessage().getBytes(StandardCharsets.UTF_8));
            return response.writeWith(Mono.just(body));
        }
        // The base is written too: a request without marks must not pick up a context from the thread it runs on.
        return chain.filter(exchange).contextWrite(reactor -> reactor.put(MessageContextAccessor.KEY, context));
    }

    @Override
    public int getOrder() {
        return LaneMqContextAutoConfiguration.FILTER_ORDER;
    }
}

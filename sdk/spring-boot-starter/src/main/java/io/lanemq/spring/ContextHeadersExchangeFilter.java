package io.lanemq.spring;

import io.lanemq.api.MessageContext;
import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;
import org.springframework.web.reactive.function.client.ExchangeFunction;
import reactor.core.publisher.Mono;

/**
 * Adds the caller's {@link MessageContext} to an outbound {@code WebClient} request, as
 * {@link ContextHeadersInterceptor} does for {@code RestTemplate}: from the Reactor context of the call when it
 * holds one ({@link LaneMqContextWebFilter} puts it there), else from the subscribing thread.
 */
final class ContextHeadersExchangeFilter implements ExchangeFilterFunction {
    private final ContextHeaders headers;

    ContextHeadersExchangeFilter(ContextHeaders headers) {
        this.headers = headers;
    }

    @Override
    public Mono<ClientResponse> filter(ClientRequest request, ExchangeFunction next) {
        return Mono.deferContextual(reactor -> {
            MessageContext context = reactor.<MessageContext>getOrEmpty(MessageContextAccessor.KEY).orElseGet(MessageContext::current);
            ClientRequest.Builder marked = ClientRequest.from(request);
            context.lane().ifPresent(lane -> {
                if (!request.headers().containsKey(headers.laneHeader())) {
                    marked.header(headers.laneHeader(), lane.path());
                }
            });
            if (context.stressTest() && !request.headers().containsKey(headers.stressTestHeader())) {
                marked.header(headers.stressTestHeader(), "true");
            }
            return next.exchange(marked.build());
        });
    }
}

package io.lanemq.spring;

import io.lanemq.api.MessageContext;
import java.io.IOException;
import org.springframework.http.HttpRequest;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;

/**
 * Adds the calling thread's {@link MessageContext} to an outbound {@code RestTemplate} / {@code RestClient}
 * request, in the headers {@link LaneMqContextFilter} reads on the other side: the lane path, and the stress-test
 * mark. A request outside any lane carries neither, as the base. Headers the caller set itself are kept.
 */
final class ContextHeadersInterceptor implements ClientHttpRequestInterceptor {
    private final ContextHeaders headers;

    ContextHeadersInterceptor(ContextHeaders headers) {
        this.headers = headers;
    }

    @Override
    public ClientHttpResponse intercept(HttpRequest request, byte[] body, ClientHttpRequestExecution execution) throws IOException {
        MessageContext context = MessageContext.current();
        context.lane().ifPresent(lane -> {
            if (!request.getHeaders().containsKey(headers.laneHeader())) {
                request.getHeaders().set(headers.laneHeader(), lane.path());
            }
        });
        if (context.stressTest() && !request.getHeaders().containsKey(headers.stressTestHeader())) {
            request.getHeaders().set(headers.stressTestHeader(), "true");
        }
        return execution.execute(request, body);
    }
}

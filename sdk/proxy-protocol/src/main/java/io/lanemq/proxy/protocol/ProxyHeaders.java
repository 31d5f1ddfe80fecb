package io.lanemq.proxy.protocol;

import io.grpc.Metadata;

/**
 * The call metadata every {@code ConsumerProxy} call carries: the application's name and its token.
 * A call without both, or with a token that is not the application's, ends with
 * {@code UNAUTHENTICATED} before any frame is read.
 *
 * <pre>{@code
 * Metadata headers = ProxyHeaders.credentials("billing-app", token);
 * ConsumerProxyGrpc.newStub(channel)
 *         .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers))
 *         .consume(responseObserver);
 * }</pre>
 */
public final class ProxyHeaders {
    /** The application's name; {@code Subscribe.application} must equal it. */
    public static final Metadata.Key<String> APPLICATION =
            Metadata.Key.of("x-lanemq-application", Metadata.ASCII_STRING_MARSHALLER);

    /** {@code Bearer <token>}. */
    public static final Metadata.Key<String> AUTHORIZATION =
            Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

    public static final String BEARER_PREFIX = "Bearer ";

    private ProxyHeaders() {
    }

    /** The headers that authenticate {@code application} with {@code token}. */
    public static Metadata credentials(String application, String token) {
        Metadata headers = new Metadata();
        headers.put(APPLICATION, application);
        headers.put(AUTHORIZATION, BEARER_PREFIX + token);
        return headers;
    }
}

package io.lanemq.proxy;

import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.lanemq.proxy.protocol.ProxyHeaders;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;
import io.lanemq.support.LogThrottle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lets a call through only with an application name and that application's token in its
 * metadata; any other call is closed with {@code UNAUTHENTICATED} before a frame is read, and the
 * answer says nothing about which part was wrong. The authenticated application is put in the
 * call's {@link Context} under {@link #APPLICATION}.
 */
final class TokenAuthInterceptor implements ServerInterceptor {
    private static final Logger log = LoggerFactory.getLogger(TokenAuthInterceptor.class);

    static final Context.Key<String> APPLICATION = Context.key("lanemq-application");

    private final Map<String, byte[]> tokens;
    private final ProxyMetrics metrics;
    private final LogThrottle refusals;

    TokenAuthInterceptor(Map<String, String> tokens, ProxyMetrics metrics, LogThrottle refusals) {
        this.refusals = refusals;
        this.tokens = tokens.entrySet().stream().collect(java.util.stream.Collectors.toUnmodifiableMap(
                Map.Entry::getKey, entry -> entry.getValue().getBytes(StandardCharsets.UTF_8)));
        this.metrics = metrics;
    }

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        String application = headers.get(ProxyHeaders.APPLICATION);
        String authorization = headers.get(ProxyHeaders.AUTHORIZATION);
        if (!authentic(application, authorization)) {
            metrics.refusedCalls(Status.Code.UNAUTHENTICATED.name()).increment();
            // Anyone can cause this line: throttled, and the caller's header cut and stripped of control characters.
            refusals.warn(log, "unauthenticated", "refused an unauthenticated call to {} (application header: {})",
                    call.getMethodDescriptor().getFullMethodName(), application == null ? "absent" : "'" + printable(application) + "'");
            call.close(Status.UNAUTHENTICATED.withDescription("missing or invalid application credentials"), new Metadata());
            return new ServerCall.Listener<>() {
            };
        }
        return Contexts.interceptCall(Context.current().withValue(APPLICATION, application), call, headers, next);
    }

    /** At most 64 characters, printable ASCII only: a header cannot forge log lines or fill them. */
    static String printable(String untrusted) {
        StringBuilder out = new StringBuilder(Math.min(untrusted.length(), 64) + 3);
        for (int i = 0; i < untrusted.length() && out.length() < 64; i++) {
            char c = untrusted.charAt(i);
            out.append(c >= ' ' && c <= '~' ? c : '?');
        }
        return untrusted.length() > 64 ? out + "..." : out.toString();
    }

    private boolean authentic(String application, String authorization) {
        if (application == null || authorization == null || !authorization.startsWith(ProxyHeaders.BEARER_PREFIX)) {
            return false;
        }
        byte[] expected = tokens.get(application);
        byte[] given = authorization.substring(ProxyHeaders.BEARER_PREFIX.length()).getBytes(StandardCharsets.UTF_8);
        // Constant time, so response timing tells nothing about how much of a guess was right.
        return expected != null && MessageDigest.isEqual(expected, given);
    }
}

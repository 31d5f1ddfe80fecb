package io.lanemq.grpc.server;

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
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * Lets a call through only with {@code authorization: Bearer <token>} ({@link ProxyHeaders}) holding the expected
 * token; any other call is refused with {@code UNAUTHENTICATED} before its first message is read, and the answer
 * does not say which part was wrong. Two kinds of server use it: one serving many applications, each with its own
 * token named by the {@code x-lanemq-application} header ({@link #perApplication}), whose name the call then finds in
 * {@link #APPLICATION}; and one with a single token for the deployment ({@link #single}).
 *
 * <p>Thread-safe. The comparison takes constant time, so response timing tells nothing about a guess.
 */
public final class BearerTokenInterceptor implements ServerInterceptor {
    /** The authenticated application, in the call's context (servers made with {@link #perApplication}). */
    public static final Context.Key<String> APPLICATION = Context.key("lanemq-application");

    private final Map<String, byte[]> tokens;
    private final byte[] single;
    private final String refusal;
    private final CallRefusals refusals;

    private BearerTokenInterceptor(Map<String, byte[]> tokens, byte[] single, String refusal, CallRefusals refusals) {
        this.tokens = tokens;
        this.single = single;
        this.refusal = refusal;
        this.refusals = Objects.requireNonNull(refusals, "refusals");
    }

    /** Each application (the map's key) with its own token. */
    public static BearerTokenInterceptor perApplication(Map<String, String> tokens, CallRefusals refusals) {
        return new BearerTokenInterceptor(tokens.entrySet().stream().collect(Collectors.toUnmodifiableMap(
                Map.Entry::getKey, entry -> bytes(entry.getValue()))), null,
                "missing or invalid application credentials", refusals);
    }

    /** One token for every caller; the application header is not read. */
    public static BearerTokenInterceptor single(String token, CallRefusals refusals) {
        return new BearerTokenInterceptor(null, bytes(Objects.requireNonNull(token, "token")), "missing or invalid token",
                refusals);
    }

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        String application = tokens == null ? null : headers.get(ProxyHeaders.APPLICATION);
        String authorization = headers.get(ProxyHeaders.AUTHORIZATION);
        byte[] expected = tokens == null ? single : application == null ? null : tokens.get(application);
        if (!authentic(expected, authorization)) {
            refusals.refuse(call, Status.UNAUTHENTICATED.withDescription(refusal), (authorization == null ? "no" : "a wrong")
                    + " token" + (tokens == null ? "" : ", application header "
                    + (application == null ? "absent" : "'" + CallRefusals.printable(application) + "'")));
            return new ServerCall.Listener<>() {
            };
        }
        if (tokens == null) {
            return next.startCall(call, headers);
        }
        return Contexts.interceptCall(Context.current().withValue(APPLICATION, application), call, headers, next);
    }

    private static boolean authentic(byte[] expected, String authorization) {
        if (expected == null || authorization == null || !authorization.startsWith(ProxyHeaders.BEARER_PREFIX)) {
            return false;
        }
        return MessageDigest.isEqual(expected, bytes(authorization.substring(ProxyHeaders.BEARER_PREFIX.length())));
    }

    private static byte[] bytes(String token) {
        return token.getBytes(StandardCharsets.UTF_8);
    }
}

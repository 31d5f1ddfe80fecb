package io.lanemq.config.etcd;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.lanemq.config.etcd.internal.AuthGrpc;
import io.lanemq.config.etcd.internal.AuthenticateRequest;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * etcd's user/password authentication for one {@link EtcdClient}: {@code Authenticate} trades the user and password
 * for a token, which then travels with every call as the {@code token} metadata entry (etcd's convention).
 *
 * <p>etcd forgets tokens: a simple token expires after {@code --auth-token-ttl} (300 s by default) without use, and
 * every token is gone when etcd restarts. It then answers UNAUTHENTICATED ("invalid auth token"); the client drops
 * the token ({@link #rejected}) and authenticates again before the next call. A wrong user or password is answered
 * INVALID_ARGUMENT ("authentication failed, invalid user ID or password") and becomes an {@link EtcdException}
 * naming the user; the password is read from its file or variable for each authentication and is never in a message.
 * Thread-safe.
 */
final class EtcdAuth implements ClientInterceptor {
    private static final Metadata.Key<String> TOKEN = Metadata.Key.of("token", Metadata.ASCII_STRING_MARSHALLER);

    private final EtcdCredentials credentials;
    private final Duration timeout;
    private volatile String token;

    EtcdAuth(EtcdCredentials credentials, Duration timeout) {
        this.credentials = credentials;
        this.timeout = timeout;
    }

    String user() {
        return credentials.user();
    }

    /**
     * Authenticates through {@code channel} unless a token is held.
     *
     * @throws StatusRuntimeException etcd did not answer (the caller tries the next endpoint)
     * @throws EtcdException          etcd refused the user or password, or has authentication disabled
     */
    synchronized void ensure(Channel channel, String endpoint) throws EtcdException {
        if (token != null) {
            return;
        }
        String password;
        try {
            password = credentials.password();
        } catch (IllegalArgumentException e) {
            throw new EtcdException("cannot authenticate to etcd on " + endpoint + ": " + e.getMessage(), e);
        }
        try {
            token = AuthGrpc.newBlockingStub(channel)
                    .withDeadlineAfter(timeout.toMillis(), TimeUnit.MILLISECONDS)
                    .authenticate(AuthenticateRequest.newBuilder().setName(credentials.user()).setPassword(password).build())
                    .getToken();
        } catch (StatusRuntimeException e) {
            Status.Code code = e.getStatus().getCode();
            if (code == Status.Code.UNAVAILABLE || code == Status.Code.DEADLINE_EXCEEDED) {
                throw e;
            }
            throw new EtcdException("etcd on " + endpoint + " refused user '" + credentials.user() + "': "
                    + e.getStatus().getCode() + ": " + e.getStatus().getDescription(), e);
        }
    }

    /** Whether etcd refused the token of a call, so the next call must authenticate again; drops the token if so. */
    boolean rejected(StatusRuntimeException e) {
        if (e.getStatus().getCode() != Status.Code.UNAUTHENTICATED) {
            return false;
        }
        token = null;
        return true;
    }

    /** Drops the token: a watch was refused, and its reason does not say whether the token was the cause. */
    void forget() {
        token = null;
    }

    @Override
    public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
        String current = token;
        return new ForwardingClientCall.SimpleForwardingClientCall<>(next.newCall(method, options)) {
            @Override
            public void start(Listener<R> listener, Metadata headers) {
                if (current != null) {
                    headers.put(TOKEN, current);
                }
                super.start(listener, headers);
            }
        };
    }
}

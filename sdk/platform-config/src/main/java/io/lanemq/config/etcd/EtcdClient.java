package io.lanemq.config.etcd;

import io.lanemq.support.Backoff;
import com.google.protobuf.ByteString;
import io.grpc.Channel;
import io.grpc.ChannelCredentials;
import io.grpc.ClientInterceptors;
import io.grpc.ConnectivityState;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.TlsChannelCredentials;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import io.lanemq.config.etcd.internal.Compare;
import io.lanemq.config.etcd.internal.DeleteRangeRequest;
import io.lanemq.config.etcd.internal.KVGrpc;
import io.lanemq.config.etcd.internal.KeyValue;
import io.lanemq.config.etcd.internal.PutRequest;
import io.lanemq.config.etcd.internal.RangeRequest;
import io.lanemq.config.etcd.internal.RangeResponse;
import io.lanemq.config.etcd.internal.RequestOp;
import io.lanemq.config.etcd.internal.TxnRequest;
import io.lanemq.config.etcd.internal.TxnResponse;
import io.lanemq.config.etcd.internal.WatchCreateRequest;
import io.lanemq.config.etcd.internal.WatchGrpc;
import io.lanemq.config.etcd.internal.WatchRequest;
import io.lanemq.config.etcd.internal.WatchResponse;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;
import javax.net.ssl.SSLException;

/**
 * A small client for the calls of etcd's v3 API the platform needs: read a key (or the keys under a prefix), write a
 * key, write keys only if one key is unchanged (a transaction: the platform console's optimistic lock), watch a key
 * (push, resumed from the last revision seen after etcd comes back).
 *
 * <p>Why gRPC stubs generated from etcd's API rather than jetcd or etcd's JSON gateway: jetcd 0.8.7 (the current
 * release) runs on Vert.x 5 and needs Netty 4.2, while rocketmq-client 5.3.3 is built on Netty 4.1 (netty-all
 * 4.1.114): on one class path Maven resolves a mix of 4.1 and 4.2 jars, and jetcd's grpc-core 1.82 meets the
 * exact [1.53.0] range that RocketMQ's grpc-netty-shaded pins. grpc-java 1.53.0 with its shaded Netty is what
 * rocketmq-client already brings, so stubs for the few messages used here (src/main/proto) add no new transport
 * and change no resolved version. The JSON gateway would need no dependency at all, but a streamed HTTP/1.1
 * watch has no keepalive: a silently dead connection would leave the SDK on stale configuration, while a gRPC
 * channel pings ({@code keepAliveTime}) and fails the stream.
 *
 * <p>Endpoints are tried in turn: a call that finds one unreachable moves on to the next, and the one that
 * answered is tried first afterwards. Thread-safe; {@link #close()} stops the watches started from it and releases
 * the connections.
 *
 * <p>Security ({@link Builder#security}): TLS ({@link EtcdTls}: the CA that signed etcd's certificate, optionally a
 * client certificate for mutual TLS) and etcd users ({@link EtcdCredentials}, see {@link EtcdAuth}). Plaintext is
 * accepted only when every endpoint is a loopback address: configuration that crosses hosts travels encrypted.
 *
 * <pre>{@code
 * EtcdSecurity security = new EtcdSecurity(Optional.of(EtcdTls.trusting(Path.of("/etc/lanemq/etcd-ca.pem"))),
 *         Optional.of(EtcdCredentials.passwordFile("lanemq-sdk", Path.of("/run/secrets/etcd-password"))));
 * try (EtcdClient etcd = EtcdClient.builder("10.0.0.1:2379,10.0.0.2:2379").security(security).build()) {
 *     long revision = etcd.put("/lanemq/platform/prod", yaml);
 *     Optional<EtcdEntry> entry = etcd.get("/lanemq/platform/prod");
 * }
 * }</pre>
 */
public final class EtcdClient implements AutoCloseable {
    private final List<String> endpoints;
    private final List<ManagedChannel> channels;
    /** The channels as calls use them: with the auth token added when there is a user. */
    private final List<Channel> callChannels;
    private final EtcdSecurity security;
    private final EtcdAuth auth;
    private final Duration requestTimeout;
    private final Backoff backoff;
    private final AtomicInteger preferred = new AtomicInteger();
    private final Set<KeyWatcher> watches = ConcurrentHashMap.newKeySet();

    private EtcdClient(Builder builder) {
        this.endpoints = List.copyOf(builder.endpoints);
        this.requestTimeout = builder.requestTimeout;
        this.backoff = new Backoff(builder.backoffInitial, builder.backoffMax, () -> ThreadLocalRandom.current().nextDouble());
        this.security = builder.security;
        this.auth = security.credentials().map(c -> new EtcdAuth(c, requestTimeout)).orElse(null);
        ChannelCredentials credentials = channelCredentials(security);
        List<ManagedChannel> opened = new ArrayList<>();
        List<Channel> forCalls = new ArrayList<>();
        for (String endpoint : endpoints) {
            int colon = endpoint.lastIndexOf(':');
            String host = endpoint.substring(0, colon).replace("[", "").replace("]", "");
            ManagedChannel channel = NettyChannelBuilder.forAddress(host, Integer.parseInt(endpoint.substring(colon + 1)), credentials)
                    // Finds a silently dead etcd connection; etcd's default --grpc-keepalive-min-time is 5 s.
                    .keepAliveTime(30, TimeUnit.SECONDS)
                    .keepAliveTimeout(10, TimeUnit.SECONDS)
                    // Callbacks only hand responses to the watch thread's queue, so they may run on the I/O thread.
                    .directExecutor()
                    .userAgent("lanemq-etcd-config")
                    .build();
            opened.add(channel);
            forCalls.add(auth == null ? channel : ClientInterceptors.intercept(channel, auth));
        }
        this.channels = List.copyOf(opened);
        this.callChannels = List.copyOf(forCalls);
    }

    private static ChannelCredentials channelCredentials(EtcdSecurity security) {
        if (security.tls().isEmpty()) {
            return InsecureChannelCredentials.create();
        }
        EtcdTls tls = security.tls().get();
        TlsChannelCredentials.Builder builder = TlsChannelCredentials.newBuilder();
        try {
            if (tls.caCertificate().isPresent()) {
                builder.trustManager(tls.caCertificate().get().toFile());
            }
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("etcd TLS CA certificate " + tls.caCertificate().get() + " is not a PEM certificate: " + e, e);
        }
        try {
            if (tls.clientCertificate().isPresent()) {
                builder.keyManager(tls.clientCertificate().get().toFile(), tls.clientKey().orElseThrow().toFile());
            }
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("etcd TLS client certificate " + tls.clientCertificate().get() + " with key "
                    + tls.clientKey().get() + " is not a PEM certificate and PKCS#8 key: " + e, e);
        }
        return builder.build();
    }

    /**
     * @param endpoints {@code host:port} pairs, comma-separated ({@code http://} prefixes are accepted; an
     *                  {@code https://} prefix on every endpoint turns on TLS trusting the JVM's CAs unless
     *                  {@link Builder#security} says more)
     * @throws IllegalArgumentException naming the endpoint that is not {@code host:port}
     */
    public static Builder builder(String endpoints) {
        return new Builder(endpoints);
    }

    public List<String> endpoints() {
        return endpoints;
    }

    /** TLS and user of the connection, for messages (never a password). */
    public EtcdSecurity security() {
        return security;
    }

    /** The endpoints as given to {@link #builder}, normalised: {@code 127.0.0.1:2379,127.0.0.1:22379}. */
    public String describe() {
        return String.join(",", endpoints);
    }

    /** Reads a key (a linearizable read). */
    public Optional<EtcdEntry> get(String key) throws EtcdException {
        return Optional.ofNullable(read(key).entry());
    }

    /**
     * As {@link #get(String)}, waiting at most {@code within} in all for an answer (instead of the request timeout per
     * endpoint): for a caller with something to fall back on.
     */
    public Optional<EtcdEntry> get(String key, Duration within) throws EtcdException {
        if (within.isNegative() || within.isZero()) {
            throw new IllegalArgumentException("within must be positive, was " + within);
        }
        long perEndpoint = Math.max(1, Math.min(requestTimeout.toMillis(), within.toMillis() / endpoints.size()));
        return Optional.ofNullable(read(key, perEndpoint).entry());
    }

    /** Writes a key and returns the revision of the write. */
    public long put(String key, String value) throws EtcdException {
        PutRequest request = PutRequest.newBuilder().setKey(bytes(key)).setValue(ByteString.copyFromUtf8(value)).build();
        return call("put", key, channel -> KVGrpc.newBlockingStub(channel)
                .withDeadlineAfter(requestTimeout.toMillis(), TimeUnit.MILLISECONDS)
                .put(request)).getHeader().getRevision();
    }

    /**
     * Writes {@code key} and {@code alsoPut} in one transaction if {@code key} was last written at
     * {@code expectedModRevision} (0: the key must not exist); otherwise writes nothing and returns the key as it is
     * now, so an editor who started from an older revision sees the change that came first instead of overwriting it.
     *
     * @param alsoPut further keys written in the same transaction (a history record beside the key); may be empty
     */
    public CompareAndPutResult compareAndPut(String key, long expectedModRevision, String value, Map<String, String> alsoPut)
            throws EtcdException {
        if (expectedModRevision < 0) {
            throw new IllegalArgumentException("expectedModRevision must be >= 0 (0: the key is absent), was " + expectedModRevision);
        }
        TxnRequest.Builder txn = TxnRequest.newBuilder()
                .addCompare(Compare.newBuilder().setKey(bytes(key)).setTarget(Compare.CompareTarget.MOD)
                        .setResult(Compare.CompareResult.EQUAL).setModRevision(expectedModRevision))
                .addSuccess(putOp(key, value))
                .addFailure(RequestOp.newBuilder().setRequestRange(RangeRequest.newBuilder().setKey(bytes(key))));
        alsoPut.forEach((k, v) -> txn.addSuccess(putOp(k, v)));
        TxnRequest request = txn.build();
        TxnResponse response = call("compare-and-put", key, channel -> KVGrpc.newBlockingStub(channel)
                .withDeadlineAfter(requestTimeout.toMillis(), TimeUnit.MILLISECONDS)
                .txn(request));
        long revision = response.getHeader().getRevision();
        if (response.getSucceeded()) {
            return new CompareAndPutResult(true, revision, Optional.empty());
        }
        RangeResponse now = response.getResponses(0).getResponseRange();
        return new CompareAndPutResult(false, revision, now.getKvsCount() == 0 ? Optional.empty()
                : Optional.of(entry(key, now.getKvs(0), revision)));
    }

    /**
     * Writes {@code puts} and deletes {@code deletes} in one transaction if every key of {@code expectedModRevisions}
     * was last written at its revision (0: the key must not exist); otherwise changes nothing. What several keys must
     * agree on (a configuration and its pending canary) is checked and changed at once.
     *
     * @return whether it was written, and the store's revision after the transaction
     */
    public TransactionResult transact(Map<String, Long> expectedModRevisions, Map<String, String> puts, List<String> deletes)
            throws EtcdException {
        if (expectedModRevisions.isEmpty()) {
            throw new IllegalArgumentException("a transaction needs at least one expected revision");
        }
        TxnRequest.Builder txn = TxnRequest.newBuilder();
        expectedModRevisions.forEach((k, revision) -> {
            if (revision < 0) {
                throw new IllegalArgumentException("expected revision of " + k + " must be >= 0 (0: absent), was " + revision);
            }
            txn.addCompare(Compare.newBuilder().setKey(bytes(k)).setTarget(Compare.CompareTarget.MOD)
                    .setResult(Compare.CompareResult.EQUAL).setModRevision(revision));
        });
        puts.forEach((k, v) -> txn.addSuccess(putOp(k, v)));
        deletes.forEach(k -> txn.addSuccess(RequestOp.newBuilder()
                .setRequestDeleteRange(DeleteRangeRequest.newBuilder().setKey(bytes(k))).build()));
        TxnRequest request = txn.build();
        String first = expectedModRevisions.keySet().iterator().next();
        TxnResponse response = call("transaction", first, channel -> KVGrpc.newBlockingStub(channel)
                .withDeadlineAfter(requestTimeout.toMillis(), TimeUnit.MILLISECONDS)
                .txn(request));
        return new TransactionResult(response.getSucceeded(), response.getHeader().getRevision());
    }

    /** Reads every key that starts with {@code prefix}, in key order (one linearizable read). */
    public List<EtcdEntry> list(String prefix) throws EtcdException {
        if (prefix == null || prefix.isEmpty()) {
            throw new IllegalArgumentException("prefix must not be empty (it would read the whole store)");
        }
        RangeRequest request = RangeRequest.newBuilder().setKey(bytes(prefix)).setRangeEnd(prefixEnd(prefix)).build();
        RangeResponse response = call("list", prefix, channel -> KVGrpc.newBlockingStub(channel)
                .withDeadlineAfter(requestTimeout.toMillis(), TimeUnit.MILLISECONDS)
                .range(request));
        long storeRevision = response.getHeader().getRevision();
        List<EtcdEntry> entries = new ArrayList<>(response.getKvsCount());
        for (KeyValue kv : response.getKvsList()) {
            entries.add(entry(kv.getKey().toString(StandardCharsets.UTF_8), kv, storeRevision));
        }
        return entries;
    }

    /** etcd's range end for "every key with this prefix": the prefix with its last byte below 0xff incremented. */
    private static ByteString prefixEnd(String prefix) {
        byte[] end = prefix.getBytes(StandardCharsets.UTF_8);
        for (int i = end.length - 1; i >= 0; i--) {
            if (end[i] != (byte) 0xff) {
                end[i]++;
                return ByteString.copyFrom(end, 0, i + 1);
            }
        }
        return ByteString.copyFrom(new byte[] {0}); // all 0xff: to the end of the key space
    }

    private static RequestOp putOp(String key, String value) {
        return RequestOp.newBuilder().setRequestPut(PutRequest.newBuilder().setKey(bytes(key))
                .setValue(ByteString.copyFromUtf8(value))).build();
    }

    private static EtcdEntry entry(String key, KeyValue kv, long storeRevision) {
        return new EtcdEntry(key, kv.getValue().toString(StandardCharsets.UTF_8), kv.getModRevision(), storeRevision);
    }

    /**
     * Watches one key from {@code fromRevision} (inclusive; 0 means "from now") on a new thread named
     * {@code lanemq-config-watch-etcd<key>}, until the returned watch or this client is closed.
     *
     * <p>When etcd is unreachable the watch retries with backoff (jittered, doubling up to the builder's
     * maximum) and, once connected again, resumes after the last revision it saw, so no put in between is
     * missed. When that history was compacted away it reads the key and reports its current value instead.
     */
    public KeyWatch watch(String key, long fromRevision, KeyWatchListener listener) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(listener, "listener");
        if (fromRevision < 0) {
            throw new IllegalArgumentException("fromRevision must be >= 0, was " + fromRevision);
        }
        return startWatch(new KeyWatcher(this, key, fromRevision, listener, backoff, false));
    }

    /**
     * As {@link #watch}, for a caller that has no value of the key from etcd (it started while etcd was unreachable):
     * the key's current value (or its absence) is delivered as soon as a stream to etcd is up, then every later change.
     */
    public KeyWatch watchCurrent(String key, KeyWatchListener listener) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(listener, "listener");
        return startWatch(new KeyWatcher(this, key, 0, listener, backoff, true));
    }

    private KeyWatch startWatch(KeyWatcher watcher) {
        watches.add(watcher);
        watcher.start();
        return watcher;
    }

    record Read(EtcdEntry entry, long storeRevision) {
    }

    Read read(String key) throws EtcdException {
        return read(key, requestTimeout.toMillis());
    }

    private Read read(String key, long timeoutMillis) throws EtcdException {
        RangeRequest request = RangeRequest.newBuilder().setKey(bytes(key)).build();
        RangeResponse response = call("read", key, channel -> KVGrpc.newBlockingStub(channel)
                .withDeadlineAfter(timeoutMillis, TimeUnit.MILLISECONDS)
                .range(request));
        long storeRevision = response.getHeader().getRevision();
        if (response.getKvsCount() == 0) {
            return new Read(null, storeRevision);
        }
        return new Read(entry(key, response.getKvs(0), storeRevision), storeRevision);
    }

    private <T> T call(String what, String key, Function<Channel, T> rpc) throws EtcdException {
        int first = preferred.get();
        StatusRuntimeException last = null;
        boolean reauthenticated = false;
        for (int i = 0; i < channels.size(); i++) {
            int index = (first + i) % channels.size();
            ManagedChannel channel = channels.get(index);
            reconnectNow(channel);
            try {
                if (auth != null) {
                    auth.ensure(channel, endpoints.get(index));
                }
                T result = rpc.apply(callChannels.get(index));
                preferred.set(index);
                return result;
            } catch (StatusRuntimeException e) {
                last = e;
                if (auth != null && auth.rejected(e) && !reauthenticated) {
                    reauthenticated = true; // the token expired or etcd restarted: once more with a new one
                    i--;
                    continue;
                }
                Status.Code code = e.getStatus().getCode();
                if (code != Status.Code.UNAVAILABLE && code != Status.Code.DEADLINE_EXCEEDED) {
                    break; // etcd answered: another endpoint would answer the same
                }
            } catch (EtcdException e) {
                throw new EtcdException("etcd " + what + " of key '" + key + "' failed: " + e.getMessage(), e);
            }
        }
        throw new EtcdException("etcd " + what + " of key '" + key + "' failed on [" + describe() + "] (" + security.describe()
                + "): " + describe(last) + hint(last), last);
    }

    /** What the operator can do about a failure whose gRPC status alone would leave them guessing. */
    private String hint(StatusRuntimeException e) {
        if (e == null) {
            return "";
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SSLException) {
                String message = String.valueOf(t.getMessage());
                if (message.contains("BAD_CERTIFICATE") || message.contains("CERTIFICATE_REQUIRED")) {
                    // etcd's alert when --client-cert-auth finds no client certificate, or one it does not trust
                    return "; the TLS handshake failed: etcd refused the client certificate or its absence (etcd requires "
                            + "one signed by a CA it trusts: configure cert and certKey)";
                }
                return "; the TLS handshake failed: check that the CA certificate is the one that signed etcd's certificate, "
                        + "and whether etcd requires a client certificate (--client-cert-auth)";
            }
        }
        String description = String.valueOf(e.getStatus().getDescription());
        if (auth == null && description.contains("user name is empty")) {
            return "; etcd has authentication enabled: configure an etcd user and its password file or environment variable";
        }
        if (security.tls().isEmpty() && e.getStatus().getCode() == Status.Code.UNAVAILABLE
                && description.contains("Network closed")) {
            return "; does etcd expect TLS? (plaintext was used)";
        }
        return "";
    }

    /** A call on a channel in TRANSIENT_FAILURE would fail at once; ours is the backoff that counts, not gRPC's. */
    private static void reconnectNow(ManagedChannel channel) {
        if (channel.getState(false) == ConnectivityState.TRANSIENT_FAILURE) {
            channel.resetConnectBackoff();
        }
    }

    static String describe(Throwable t) {
        if (t instanceof StatusRuntimeException e) {
            Status status = e.getStatus();
            String cause = status.getCause() == null ? "" : " (" + status.getCause().getMessage() + ")";
            return status.getCode() + (status.getDescription() == null ? "" : ": " + status.getDescription()) + cause;
        }
        return String.valueOf(t);
    }

    /** One watch stream; what it receives goes to {@code sink}: responses, then a Throwable or {@link #COMPLETED}. */
    static final class WatchCall {
        static final Object COMPLETED = new Object();
        final int endpointIndex;
        final String endpoint;
        private final ClientCallStreamObserver<WatchRequest> requests;

        private WatchCall(int endpointIndex, String endpoint, ClientCallStreamObserver<WatchRequest> requests) {
            this.endpointIndex = endpointIndex;
            this.endpoint = endpoint;
            this.requests = requests;
        }

        void cancel() {
            requests.cancel("watch closed by the client", null);
        }
    }

    WatchCall openWatch(String key, long fromRevision, Consumer<Object> sink) throws EtcdException {
        int index = preferred.get();
        ManagedChannel channel = channels.get(index);
        reconnectNow(channel);
        if (auth != null) {
            auth.ensure(channel, endpoints.get(index));
        }
        AtomicReference<ClientCallStreamObserver<WatchRequest>> requests = new AtomicReference<>();
        WatchGrpc.newStub(callChannels.get(index)).watch(new ClientResponseObserver<WatchRequest, WatchResponse>() {
            @Override
            public void beforeStart(ClientCallStreamObserver<WatchRequest> requestStream) {
                requests.set(requestStream);
            }

            @Override
            public void onNext(WatchResponse response) {
                sink.accept(response);
            }

            @Override
            public void onError(Throwable t) {
                sink.accept(t);
            }

            @Override
            public void onCompleted() {
                sink.accept(WatchCall.COMPLETED);
            }
        });
        requests.get().onNext(WatchRequest.newBuilder()
                .setCreateRequest(WatchCreateRequest.newBuilder()
                        .setKey(bytes(key))
                        .setStartRevision(fromRevision)
                        .setProgressNotify(true))
                .build());
        return new WatchCall(index, endpoints.get(index), requests.get());
    }

    /** The watch on {@code endpointIndex} failed: the next stream tries the next endpoint. */
    void endpointFailed(int endpointIndex) {
        preferred.compareAndSet(endpointIndex, (endpointIndex + 1) % channels.size());
    }

    /**
     * etcd refused or cancelled a watch for a reason other than compaction: the next stream authenticates anew. etcd
     * checks a watch's token when the watch is created and reports a refusal as a cancelled watch, whose reason does
     * not say whether the token had expired; a fresh token costs one request.
     */
    void watchRefused(Throwable error) {
        if (auth != null && (error == null || (error instanceof StatusRuntimeException e && auth.rejected(e)))) {
            auth.forget();
        }
    }

    void watchClosed(KeyWatcher watcher) {
        watches.remove(watcher);
    }

    private static ByteString bytes(String key) {
        return ByteString.copyFromUtf8(key);
    }

    /** Stops every watch started from this client, then closes the connections. */
    @Override
    public void close() {
        for (KeyWatcher watcher : List.copyOf(watches)) {
            watcher.close();
        }
        channels.forEach(ManagedChannel::shutdown);
        for (ManagedChannel channel : channels) {
            try {
                if (!channel.awaitTermination(2, TimeUnit.SECONDS)) {
                    channel.shutdownNow();
                }
            } catch (InterruptedException e) {
                channel.shutdownNow();
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Settings of an {@link EtcdClient}, each validated when set. Not thread-safe. */
    public static final class Builder {
        private final List<String> endpoints;
        private Duration requestTimeout = Duration.ofSeconds(5);
        private Duration backoffInitial = Duration.ofMillis(100);
        private Duration backoffMax = Duration.ofSeconds(2);
        private EtcdSecurity security = EtcdSecurity.NONE;
        private final boolean https;
        private final boolean http;

        private Builder(String endpoints) {
            this.endpoints = parseEndpoints(endpoints);
            this.https = schemes(endpoints);
            this.http = endpoints.toLowerCase(Locale.ROOT).contains("http://");
        }

        /** TLS and authentication (default {@link EtcdSecurity#NONE}: plaintext, loopback endpoints only). */
        public Builder security(EtcdSecurity security) {
            this.security = Objects.requireNonNull(security, "security");
            return this;
        }

        /** Deadline of each read and write (default 5 s). */
        public Builder requestTimeout(Duration timeout) {
            if (timeout == null || timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("etcd requestTimeout must be positive, was " + timeout);
            }
            this.requestTimeout = timeout;
            return this;
        }

        /** Delays between attempts to re-establish a watch (default 100 ms doubling to 2 s). */
        public Builder reconnectBackoff(Duration initial, Duration max) {
            new Backoff(initial, max, () -> 0); // validates both now, naming the setting
            this.backoffInitial = initial;
            this.backoffMax = max;
            return this;
        }

        /**
         * @throws IllegalArgumentException plaintext to an endpoint that is not a loopback address (naming it), or a
         *                                  TLS file that is not PEM
         */
        public EtcdClient build() {
            if (https && security.tls().isEmpty()) {
                security = new EtcdSecurity(Optional.of(EtcdTls.trustingSystemCas()), security.credentials());
            }
            if (http && security.tls().isPresent()) {
                throw new IllegalArgumentException("etcd endpoints '" + String.join(",", endpoints) + "' are given as http:// "
                        + "but TLS is configured; drop the scheme or write https://");
            }
            if (security.tls().isEmpty()) {
                for (String endpoint : endpoints) {
                    if (!isLoopback(endpoint)) {
                        throw new IllegalArgumentException("etcd endpoint '" + endpoint + "' is not a loopback address and TLS is "
                                + "not configured: plaintext etcd is for tests on loopback only; configure TLS (tls, cacert, "
                                + "and cert/certKey for mutual TLS)");
                    }
                }
            }
            return new EtcdClient(this);
        }

        /** Literal loopback addresses and {@code localhost}; a name is not resolved (it may resolve elsewhere later). */
        static boolean isLoopback(String endpoint) {
            String host = endpoint.substring(0, endpoint.lastIndexOf(':')).replace("[", "").replace("]", "");
            if (host.equalsIgnoreCase("localhost")) {
                return true;
            }
            if (!host.matches("[0-9.]+") && !host.contains(":")) {
                return false;
            }
            try {
                return InetAddress.getByName(host).isLoopbackAddress(); // a literal: no lookup
            } catch (UnknownHostException e) {
                return false;
            }
        }

        /** Whether the endpoints say https; all or none may. */
        private static boolean schemes(String endpoints) {
            long https = 0;
            long all = 0;
            for (String raw : endpoints.split(",")) {
                all++;
                if (raw.strip().regionMatches(true, 0, "https://", 0, 8)) {
                    https++;
                }
            }
            if (https != 0 && https != all) {
                throw new IllegalArgumentException("etcd endpoints '" + endpoints + "' mix https:// and plaintext; use one scheme");
            }
            return https != 0;
        }

        static List<String> parseEndpoints(String endpoints) {
            if (endpoints == null || endpoints.isBlank()) {
                throw new IllegalArgumentException("etcd endpoints are empty; expected host:port[,host:port...]");
            }
            List<String> parsed = new ArrayList<>();
            for (String raw : endpoints.split(",")) {
                String endpoint = raw.strip();
                if (endpoint.regionMatches(true, 0, "https://", 0, 8)) {
                    endpoint = endpoint.substring("https://".length());
                } else if (endpoint.regionMatches(true, 0, "http://", 0, 7)) {
                    endpoint = endpoint.substring("http://".length());
                }
                if (endpoint.endsWith("/")) {
                    endpoint = endpoint.substring(0, endpoint.length() - 1);
                }
                int colon = endpoint.lastIndexOf(':');
                boolean bracketed = endpoint.startsWith("[");
                if (colon <= 0 || (bracketed && endpoint.charAt(colon - 1) != ']') || (!bracketed && endpoint.indexOf(':') != colon)) {
                    throw new IllegalArgumentException("etcd endpoint '" + raw.strip() + "' is not host:port (in '" + endpoints + "')");
                }
                int port;
                try {
                    port = Integer.parseInt(endpoint.substring(colon + 1));
                } catch (NumberFormatException e) {
                    port = -1;
                }
                if (port < 1 || port > 65_535) {
                    throw new IllegalArgumentException("etcd endpoint '" + raw.strip() + "' has no valid port (in '" + endpoints + "')");
                }
                parsed.add(endpoint);
            }
            return parsed;
        }
    }
}

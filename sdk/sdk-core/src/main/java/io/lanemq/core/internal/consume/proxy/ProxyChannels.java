package io.lanemq.core.internal.consume.proxy;

import io.grpc.CallCredentials;
import io.grpc.ChannelCredentials;
import io.grpc.CompositeChannelCredentials;
import io.grpc.Grpc;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.TlsChannelCredentials;
import io.lanemq.config.ProducerConfig;
import io.lanemq.grpc.server.GrpcServerLimits;
import io.lanemq.proxy.protocol.ProxyHeaders;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * One TLS channel per proxy endpoint, each call carrying the application's name and token as call
 * credentials. gRPC only sends call credentials over a secure transport, so a token never travels in
 * clear. {@link #next()} hands out the endpoints in turn, so a reconnect tries the next proxy instance.
 */
final class ProxyChannels implements AutoCloseable {
    private final List<String> endpoints;
    private final List<ManagedChannel> channels = new ArrayList<>();
    private int nextIndex;

    ProxyChannels(ProxyConsumerSpec spec) {
        this.endpoints = spec.endpoints();
        ChannelCredentials credentials = CompositeChannelCredentials.create(tls(spec.caCertificate()),
                new HeaderCredentials(ProxyHeaders.credentials(spec.application(), spec.token())));
        for (String endpoint : endpoints) {
            channels.add(Grpc.newChannelBuilder(endpoint, credentials)
                    .keepAliveTime(30, TimeUnit.SECONDS)
                    // The proxy cuts frames at the platform's producer.maxBodyBytes plus framing room; sized on that
                    // setting's ceiling, the channel accepts every frame whatever a reload sets it to (gRPC's own
                    // default, 4 MiB, is the default body limit alone: one such message would not fit).
                    .maxInboundMessageSize(GrpcServerLimits.maxFrameBytes(ProducerConfig.MAX_BODY_BYTES_LIMIT))
                    .build());
        }
    }

    private static ChannelCredentials tls(Path caCertificate) {
        try {
            return TlsChannelCredentials.newBuilder().trustManager(caCertificate.toFile()).build();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the consumer proxy's CA certificate " + caCertificate
                    + " (platform configuration proxy.caCertificate)", e);
        }
    }

    /** The channel to try next, and its endpoint. */
    synchronized Target next() {
        int index = nextIndex;
        nextIndex = (nextIndex + 1) % channels.size();
        return new Target(endpoints.get(index), channels.get(index));
    }

    @Override
    public synchronized void close() {
        channels.forEach(ManagedChannel::shutdownNow);
    }

    record Target(String endpoint, ManagedChannel channel) {
    }

    /** Fixed headers as call credentials. */
    private static final class HeaderCredentials extends CallCredentials {
        private final Metadata headers;

        HeaderCredentials(Metadata headers) {
            this.headers = headers;
        }

        @Override
        public void applyRequestMetadata(RequestInfo info, Executor executor, MetadataApplier applier) {
            applier.apply(headers);
        }

        @Override
        public void thisUsesUnstableApi() {
        }
    }
}

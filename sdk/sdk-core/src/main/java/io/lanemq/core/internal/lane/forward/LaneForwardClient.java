package io.lanemq.core.internal.lane.forward;

import io.grpc.ChannelCredentials;
import io.grpc.ClientInterceptor;
import io.grpc.Grpc;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.TlsChannelCredentials;
import io.grpc.stub.MetadataUtils;
import io.lanemq.api.ConsumeResult;
import io.lanemq.api.ReceivedMessage;
import io.lanemq.protocol.lane.ForwardReply;
import io.lanemq.protocol.lane.ForwardRequest;
import io.lanemq.protocol.lane.LaneForwardGrpc;
import io.lanemq.proxy.protocol.ProxyHeaders;
import io.lanemq.support.Ticker;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Forwards a consumed message to another instance's {@link LaneForwardServer} and waits for its
 * listener's answer. TLS: the target's certificate must chain to {@link ForwardClientOptions#trustedCa()}
 * and name the address dialled (hostname or IP verification stays on); every call carries the token.
 *
 * <pre>{@code
 * try (LaneForwardClient client = new LaneForwardClient(settings, registry)) {
 *     ConsumeResult result = client.forward(target, "billing", message);   // ack only on SUCCESS
 * }
 * }</pre>
 *
 * <p>Thread-safe; one channel per target, reused by concurrent calls, closed after
 * {@link ForwardClientOptions#idleTimeout()} unused and all of them by {@link #close()}.
 */
public final class LaneForwardClient implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(LaneForwardClient.class);

    private final ForwardClientOptions settings;
    private final LaneForwardMetrics metrics;
    private final ClientInterceptor token;
    private final ChannelCache channels;
    private final Ticker ticker;

    /** @throws UncheckedIOException when the trusted CA file cannot be read */
    public LaneForwardClient(ForwardClientOptions settings, MeterRegistry registry) {
        this(settings, registry, Ticker.system());
    }

    /** As above, measuring call latency and idle channels on {@code ticker}. */
    public LaneForwardClient(ForwardClientOptions settings, MeterRegistry registry, Ticker ticker) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        this.metrics = new LaneForwardMetrics(Objects.requireNonNull(registry, "registry"));
        Metadata headers = new Metadata();
        headers.put(ProxyHeaders.AUTHORIZATION, ProxyHeaders.BEARER_PREFIX + settings.token());
        this.token = MetadataUtils.newAttachHeadersInterceptor(headers);
        ChannelCredentials tls = tls(settings);
        long idleMillis = settings.idleTimeout().toMillis();
        this.channels = new ChannelCache(target -> Grpc.newChannelBuilderForAddress(target.getHostString(), target.getPort(), tls)
                .idleTimeout(idleMillis, TimeUnit.MILLISECONDS)
                .build(), settings.idleTimeout().toNanos(), ticker);
    }

    private static ChannelCredentials tls(ForwardClientOptions settings) {
        try {
            return TlsChannelCredentials.newBuilder().trustManager(settings.trustedCa().toFile()).build();
        } catch (IOException | RuntimeException e) {
            throw new UncheckedIOException(new IOException("cannot read the lane forwarding CA certificate "
                    + settings.trustedCa() + " (ForwardClientOptions.trustedCa): " + e.getMessage(), e));
        }
    }

    /**
     * Runs {@code message} through {@code target}'s listener of {@code consumerGroup} (on the message's logic
     * topic) and returns its result. Blocks up to {@link ForwardClientOptions#callDeadline()}.
     *
     * @throws LaneForwardException when no answer came from the target's listener; the message must then
     *         be treated as not consumed
     */
    public ConsumeResult forward(InetSocketAddress target, String consumerGroup, ReceivedMessage message)
            throws LaneForwardException {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(consumerGroup, "consumerGroup");
        Objects.requireNonNull(message, "message");
        ForwardRequest request = LaneMessages.request(consumerGroup, message);
        int bytes = request.getSerializedSize();
        if (bytes > settings.maxMessageBytes()) {
            // Checked here rather than by gRPC's outbound limit, whose failure on a channel still connecting never
            // completed the call in 1.53; and the server would only reset the stream (CANCELLED), naming nothing.
            metrics.called(consumerGroup, LaneForwardMetrics.lowerCase(Status.Code.RESOURCE_EXHAUSTED.name()), 0);
            throw new LaneForwardException(Status.Code.RESOURCE_EXHAUSTED, "lane forward of " + message.messageId()
                    + " (logic topic " + message.logicTopic() + ") to " + target + " for group " + consumerGroup
                    + " refused: the request is " + bytes + " bytes, over the limit of " + settings.maxMessageBytes()
                    + " (producer.maxBodyBytes plus framing room)", null);
        }
        long start = ticker.read();
        try {
            ManagedChannel channel = channels.channel(target);
            ForwardReply reply = LaneForwardGrpc.newBlockingStub(channel)
                    .withInterceptors(token)
                    .withDeadlineAfter(settings.callDeadline().toNanos(), TimeUnit.NANOSECONDS)
                    .consume(request);
            ConsumeResult result = result(reply, target, consumerGroup);
            metrics.called(consumerGroup, LaneForwardMetrics.lowerCase(result.name()), ticker.read() - start);
            return result;
        } catch (StatusRuntimeException e) {
            Status status = e.getStatus();
            metrics.called(consumerGroup, LaneForwardMetrics.lowerCase(status.getCode().name()), ticker.read() - start);
            throw new LaneForwardException(status.getCode(), "lane forward of " + message.messageId() + " (logic topic "
                    + message.logicTopic() + ") to " + target + " for group " + consumerGroup + " failed: " + status.getCode()
                    + (status.getDescription() == null ? "" : " (" + status.getDescription() + ")"), e);
        }
    }

    private static ConsumeResult result(ForwardReply reply, InetSocketAddress target, String consumerGroup) {
        return switch (reply.getResult()) {
            case SUCCESS -> ConsumeResult.SUCCESS;
            case RETRY_LATER -> ConsumeResult.RETRY_LATER;
            case DEAD_LETTER -> ConsumeResult.DEAD_LETTER;
            default -> {
                // A newer server's answer this version does not know: not consumed is the safe reading.
                log.warn("lane forward to {} for group {}: unknown result {}; taken as RETRY_LATER", target, consumerGroup,
                        reply.getResultValue());
                yield ConsumeResult.RETRY_LATER;
            }
        };
    }

    /** Channels to targets currently held (for tests and diagnostics). */
    int openChannels() {
        return channels.size();
    }

    /** Closes every channel; calls in flight fail with {@code UNAVAILABLE}. */
    @Override
    public void close() {
        channels.close();
    }
}

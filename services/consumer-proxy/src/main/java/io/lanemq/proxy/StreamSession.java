package io.lanemq.proxy;

import io.grpc.Status;
import io.grpc.StatusException;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.lanemq.api.Lane;
import io.lanemq.proxy.protocol.Ack;
import io.lanemq.proxy.protocol.ConsumeRequest;
import io.lanemq.proxy.protocol.CreditGrant;
import io.lanemq.proxy.protocol.ConsumeResponse;
import io.lanemq.proxy.protocol.Deliveries;
import io.lanemq.proxy.protocol.Delivery;
import io.lanemq.proxy.protocol.FrameWindow;
import io.lanemq.proxy.protocol.Nack;
import io.lanemq.proxy.protocol.Subscribe;
import io.lanemq.proxy.protocol.Subscribed;
import io.micrometer.core.instrument.DistributionSummary;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One consumer's {@code Consume} stream: reads its frames, checks them, and turns them into
 * dispatcher calls; a frame that cannot be served is answered with a {@code Status} frame and
 * counted, and the stream goes on. Every write to the response stream goes through
 * {@link #send}, which serialises the dispatcher's pushes and this class's own answers.
 */
final class StreamSession implements StreamObserver<ConsumeRequest> {
    private static final Logger log = LoggerFactory.getLogger(StreamSession.class);
    /** Inbound frames (acks, credits) requested from gRPC at a time; see {@link FrameWindow}. */
    private static final int INBOUND_CHUNK = 32;

    private final ServerCallStreamObserver<ConsumeResponse> responses;
    private final String application;
    private final GroupRegistry groups;
    private final ProxyServerOptions config;
    private final ProxyMetrics metrics;
    private final Consumer<StreamSession> onEnd;
    private final FrameWindow inbound;
    private final DistributionSummary frameDeliveries;
    private volatile GroupRuntime group;
    private volatile ConsumerSession session;
    private volatile boolean acceptsBatches;
    private volatile boolean ended;

    StreamSession(ServerCallStreamObserver<ConsumeResponse> responses, String application, GroupRegistry groups,
                  ProxyServerOptions config, ProxyMetrics metrics, Consumer<StreamSession> onEnd) {
        this.responses = responses;
        this.application = application;
        this.groups = groups;
        this.config = config;
        this.metrics = metrics;
        this.onEnd = onEnd;
        this.inbound = FrameWindow.onServer(responses, INBOUND_CHUNK);
        this.frameDeliveries = metrics.frameDeliveries();
    }

    @Override
    public void onNext(ConsumeRequest request) {
        switch (request.getFrameCase()) {
            case SUBSCRIBE -> subscribe(request.getSubscribe());
            case ACK -> ack(request.getAck());
            case NACK -> nack(request.getNack());
            case CREDIT -> credit(request.getCredit());
            case FRAME_NOT_SET -> drop(io.lanemq.proxy.protocol.Status.Code.MALFORMED_FRAME, 0,
                    "the frame has no field set (is the client's protocol newer than this proxy's?)");
        }
        inbound.processed();
    }

    private void subscribe(Subscribe subscribe) {
        if (session != null) {
            drop(io.lanemq.proxy.protocol.Status.Code.ALREADY_SUBSCRIBED, 0,
                    "this stream is already subscribed to " + group.key() + "; open another stream");
            return;
        }
        if (!application.equals(subscribe.getApplication())) {
            end(Status.PERMISSION_DENIED.withDescription("Subscribe.application '" + subscribe.getApplication()
                    + "' is not the authenticated application '" + application + "'"));
            return;
        }
        if (subscribe.getLogicTopic().isBlank() || subscribe.getConsumerGroup().isBlank()) {
            end(Status.INVALID_ARGUMENT.withDescription("Subscribe needs logic_topic and consumer_group"));
            return;
        }
        if (!subscribe.getLane().isEmpty() && Lane.parse(subscribe.getLane()).isEmpty()) {
            end(Status.INVALID_ARGUMENT.withDescription("Subscribe.lane '" + subscribe.getLane() + "' is not a lane path"
                    + " (1 to " + Lane.MAX_DEPTH + " dot-separated segments of letters, digits, '_' or '-'); empty: the base"));
            return;
        }
        String consumerId = subscribe.getConsumerId().isBlank()
                ? application + "-" + Integer.toHexString(System.identityHashCode(this)) : subscribe.getConsumerId();
        acceptsBatches = subscribe.getAcceptsBatches();
        GroupRegistry.Joined joined;
        try {
            joined = groups.join(subscribe.getLogicTopic(), subscribe.getConsumerGroup(), consumerId,
                    subscribe.getLane(), this::push);
        } catch (StatusException e) {
            end(e.getStatus());
            return;
        }
        GroupRuntime runtime = joined.group();
        group = runtime;
        session = joined.session();
        // Subscribed goes first: the session has no credits until the grant below.
        try {
            send(ConsumeResponse.newBuilder().setSubscribed(Subscribed.newBuilder()
                    .setProxyId(config.proxyId())
                    .setConsumerId(consumerId)
                    .setAckTimeoutMs((int) config.ackTimeout().toMillis())
                    .setMaxDeliveryAttempts(runtime.dispatcher().settings().maxDeliveryAttempts())).build());
        } catch (IllegalStateException e) {
            // The stream ended meanwhile: handled just below.
        }
        if (ended) {
            // The stream broke while joining and its end saw no session yet: leave now (disconnect is idempotent).
            runtime.dispatcher().disconnect(joined.session());
            return;
        }
        if (subscribe.getInitialCredits() != 0) {
            runtime.dispatcher().grant(joined.session(), Integer.toUnsignedLong(subscribe.getInitialCredits()));
        }
        log.info("{} subscribed to {} (application {}, lane {})", consumerId, runtime.key(), application,
                subscribe.getLane().isEmpty() ? "base" : subscribe.getLane());
    }

    private void ack(Ack ack) {
        if (notSubscribed("Ack")) {
            return;
        }
        for (long id : group.dispatcher().ack(session, ack.getDeliveryIdsList(), Integer.toUnsignedLong(ack.getCredits()))) {
            drop(io.lanemq.proxy.protocol.Status.Code.UNKNOWN_DELIVERY, id,
                    "ack for delivery " + id + ", which is not outstanding on this stream (unknown, already settled or timed out)");
        }
    }

    private void nack(Nack nack) {
        if (notSubscribed("Nack")) {
            return;
        }
        OptionalLong delay = nack.hasRetryDelayMs() ? OptionalLong.of(Integer.toUnsignedLong(nack.getRetryDelayMs())) : OptionalLong.empty();
        GroupDispatcher.Settled settled = nack.getDeadLetter()
                ? group.dispatcher().deadLetter(session, nack.getDeliveryId())
                : group.dispatcher().nack(session, nack.getDeliveryId(), delay);
        if (settled == GroupDispatcher.Settled.UNKNOWN_DELIVERY) {
            drop(io.lanemq.proxy.protocol.Status.Code.UNKNOWN_DELIVERY, nack.getDeliveryId(), "nack for delivery "
                    + nack.getDeliveryId() + ", which is not outstanding on this stream (unknown, already settled or timed out)");
        }
    }

    private void credit(CreditGrant grant) {
        if (notSubscribed("CreditGrant")) {
            return;
        }
        int credits = grant.getCredits();
        if (grant.getWithdrawUnused()) {
            if (credits != 0) {
                drop(io.lanemq.proxy.protocol.Status.Code.MALFORMED_FRAME, 0,
                        "CreditGrant.withdraw_unused takes credits back; credits must then be 0, was " + credits);
                return;
            }
            group.dispatcher().withdraw(session);
            return;
        }
        if (credits == 0) {
            drop(io.lanemq.proxy.protocol.Status.Code.MALFORMED_FRAME, 0, "CreditGrant.credits must be positive");
            return;
        }
        group.dispatcher().grant(session, Integer.toUnsignedLong(credits));
    }

    private boolean notSubscribed(String frame) {
        if (session != null) {
            return false;
        }
        end(Status.INVALID_ARGUMENT.withDescription("the first frame must be a Subscribe, got " + frame));
        return true;
    }

    /** The group this stream joined; null before its Subscribe. */
    GroupRuntime group() {
        return group;
    }

    /** Tells the consumer the proxy is shutting down: no more deliveries, acks still count. */
    void draining() {
        send(ConsumeResponse.newBuilder().setStatus(io.lanemq.proxy.protocol.Status.newBuilder()
                .setCode(io.lanemq.proxy.protocol.Status.Code.DRAINING)
                .setMessage("proxy " + config.proxyId() + " is shutting down; ack what you hold, then reconnect")).build());
    }

    /** Ends the stream from the proxy's side. */
    void end(Status status) {
        synchronized (this) {
            if (ended) {
                return;
            }
            ended = true;
        }
        if (!status.isOk() && session == null) {
            metrics.refusedCalls(status.getCode().name()).increment();
            log.info("ending a stream of application {} with {}: {}", application, status.getCode(), status.getDescription());
        }
        leave();
        try {
            responses.onError(status.asRuntimeException());
        } catch (RuntimeException e) {
            log.debug("stream already closed: {}", e.toString());
        }
    }

    /** The call was closed on a frame that did not parse (see {@link io.lanemq.grpc.server.MalformedMessageGuard}). */
    void endedOnMalformedFrame() {
        synchronized (this) {
            if (ended) {
                return;
            }
            ended = true;
        }
        leave();
    }

    @Override
    public void onError(Throwable t) {
        log.debug("stream of {} broke: {}", session, t.toString());
        synchronized (this) {
            ended = true;
        }
        leave();
    }

    @Override
    public void onCompleted() {
        synchronized (this) {
            if (ended) {
                return;
            }
            ended = true;
        }
        leave();
        try {
            responses.onCompleted();
        } catch (RuntimeException e) {
            log.debug("stream already closed: {}", e.toString());
        }
    }

    private void leave() {
        ConsumerSession current = session;
        if (current != null) {
            group.dispatcher().disconnect(current);
        }
        onEnd.accept(this);
    }

    private void drop(io.lanemq.proxy.protocol.Status.Code code, long deliveryId, String message) {
        metrics.droppedFrames(code.name()).increment();
        log.debug("{}: dropped a frame: {}", session, message);
        send(ConsumeResponse.newBuilder().setStatus(io.lanemq.proxy.protocol.Status.newBuilder()
                .setCode(code).setMessage(message).setDeliveryId(deliveryId)).build());
    }

    private void push(List<Delivery> deliveries) {
        if (deliveries.size() > 1 && acceptsBatches) {
            // A frame stays within what the client's channel accepts: batches are cut at the frame limit, and a
            // delivery that alone comes near it (a body at producer.maxBodyBytes) travels in a frame of its own.
            int budget = groups.maxFrameBytes();
            Deliveries.Builder frame = Deliveries.newBuilder();
            long frameBytes = 0;
            for (Delivery delivery : deliveries) {
                // Each repeated entry costs its size plus a tag and a length prefix of at most 6 bytes.
                long bytes = delivery.getSerializedSize() + 6L;
                if (frame.getDeliveriesCount() > 0 && frameBytes + bytes > budget) {
                    sendFrame(frame);
                    frame = Deliveries.newBuilder();
                    frameBytes = 0;
                }
                frame.addDeliveries(delivery);
                frameBytes += bytes;
            }
            sendFrame(frame);
            return;
        }
        for (Delivery delivery : deliveries) {
            send(ConsumeResponse.newBuilder().setDelivery(delivery).build());
            frameDeliveries.record(1);
        }
    }

    private void sendFrame(Deliveries.Builder frame) {
        if (frame.getDeliveriesCount() == 1) {
            send(ConsumeResponse.newBuilder().setDelivery(frame.getDeliveries(0)).build());
        } else {
            send(ConsumeResponse.newBuilder().setDeliveries(frame).build());
        }
        frameDeliveries.record(frame.getDeliveriesCount());
    }

    private synchronized void send(ConsumeResponse response) {
        if (ended || responses.isCancelled()) {
            throw new IllegalStateException("the stream has ended");
        }
        responses.onNext(response);
    }
}

package io.lanemq.core.internal.lane.forward;

import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.lanemq.api.ConsumeResult;
import io.lanemq.protocol.lane.ForwardReply;
import io.lanemq.protocol.lane.ForwardRequest;
import io.lanemq.protocol.lane.LaneForwardGrpc;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code LaneForward} service. gRPC calls it on a transport thread (the server runs with a direct
 * executor); it only hands the message to the bounded listener executor, so a slow listener never
 * holds a Netty event loop, and a full executor is an immediate {@code RESOURCE_EXHAUSTED} the caller
 * can act on (another instance, or later) rather than a queue that grows.
 */
final class LaneForwardService extends LaneForwardGrpc.LaneForwardImplBase {
    private static final Logger log = LoggerFactory.getLogger(LaneForwardService.class);

    private final LaneForwardHandler handler;
    private final ExecutorService listeners;
    private final LaneForwardMetrics metrics;

    LaneForwardService(LaneForwardHandler handler, ExecutorService listeners, LaneForwardMetrics metrics) {
        this.handler = handler;
        this.listeners = listeners;
        this.metrics = metrics;
    }

    @Override
    public void consume(ForwardRequest request, StreamObserver<ForwardReply> replies) {
        ServerCallStreamObserver<ForwardReply> call = (ServerCallStreamObserver<ForwardReply>) replies;
        // With a cancel handler set, answering a call the client gave up on is a no-op instead of an exception.
        call.setOnCancelHandler(() -> {
        });
        try {
            listeners.execute(() -> serve(request, call));
        } catch (RejectedExecutionException e) {
            if (listeners.isShutdown()) {
                call.onError(Status.UNAVAILABLE.withDescription("this instance is stopping").asRuntimeException());
                return;
            }
            metrics.rejected(LaneForwardMetrics.REASON_BUSY).increment();
            log.debug("lane forward: every listener thread is busy; refused {} of group {}",
                    request.getMessage().getMessageId(), request.getConsumerGroup());
            call.onError(Status.RESOURCE_EXHAUSTED.withDescription("every listener thread of this instance is busy")
                    .asRuntimeException());
        }
    }

    private void serve(ForwardRequest request, ServerCallStreamObserver<ForwardReply> call) {
        if (call.isCancelled()) {
            // The caller's deadline passed while the message waited: it already counts the message as not
            // consumed, so running the listener now would only make a duplicate.
            metrics.rejected(LaneForwardMetrics.REASON_CANCELLED).increment();
            return;
        }
        String group = request.getConsumerGroup();
        ForwardedMessage message = LaneMessages.received(request);
        ConsumeResult result;
        try {
            result = handler.consume(group, request.getLogicTopic(), message);
            if (result == null) {
                log.warn("lane forward: the handler of group {} returned no result for {}; answering RETRY_LATER", group, message);
                result = ConsumeResult.RETRY_LATER;
            }
        } catch (UnknownGroupException e) {
            metrics.rejected(LaneForwardMetrics.REASON_UNKNOWN_GROUP).increment();
            log.info("lane forward: {} for {}", e.getMessage(), message);
            call.onError(Status.NOT_FOUND.withDescription(e.getMessage()).asRuntimeException());
            return;
        } catch (Exception e) {
            log.warn("lane forward: the listener of group {} failed on {}; answering RETRY_LATER", group, message, e);
            result = ConsumeResult.RETRY_LATER;
        }
        metrics.served(group, result);
        call.onNext(ForwardReply.newBuilder().setResult(switch (result) {
            case SUCCESS -> ForwardReply.Result.SUCCESS;
            case RETRY_LATER -> ForwardReply.Result.RETRY_LATER;
            case DEAD_LETTER -> ForwardReply.Result.DEAD_LETTER;
        }).build());
        call.onCompleted();
    }
}

package io.lanemq.core.internal.consume.proxy;

import io.grpc.Status;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import io.lanemq.proxy.protocol.Ack;
import io.lanemq.proxy.protocol.ConsumeRequest;
import io.lanemq.proxy.protocol.ConsumeResponse;
import io.lanemq.proxy.protocol.ConsumerProxyGrpc;
import io.lanemq.proxy.protocol.CreditGrant;
import io.lanemq.proxy.protocol.Delivery;
import io.lanemq.proxy.protocol.FrameWindow;
import io.lanemq.proxy.protocol.Nack;
import io.lanemq.proxy.protocol.Subscribe;
import io.lanemq.proxy.protocol.Subscribed;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@code Consume} call to the proxy: sends Subscribe first, then acks (batched by an
 * {@link AckBatcher}, each batch returning its credits), nacks and credit grants; hands what the proxy
 * sends to a {@link Handler}. Every outgoing frame goes through one lock (a gRPC request stream takes
 * one writer at a time); frames for a stream that has ended are dropped, since the proxy redelivers
 * whatever that stream held. While the subscription is paused the stream withholds credits: it takes back those the
 * proxy has not used, and settles deliveries without returning theirs; resuming grants what fills the window again.
 */
final class ProxyStream implements ClientResponseObserver<ConsumeRequest, ConsumeResponse> {
    private static final Logger log = LoggerFactory.getLogger(ProxyStream.class);
    /** Inbound frames (deliveries) requested from gRPC at a time; see {@link FrameWindow}. */
    private static final int INBOUND_CHUNK = 32;

    /** What the consumer does with the stream's events; called on gRPC threads, one event at a time. */
    interface Handler {
        void subscribed(ProxyStream stream, Subscribed subscribed);

        void delivered(ProxyStream stream, Delivery delivery);

        void ended(ProxyStream stream, Status status);
    }

    private final String endpoint;
    private final Subscribe subscribe;
    private final Handler handler;
    private final AckBatcher acks;
    private ClientCallStreamObserver<ConsumeRequest> requests;
    private FrameWindow inbound;
    private boolean ended;
    /** Deliveries the proxy may push ahead of the listener, when not withholding. */
    private final int window;
    /** Deliveries received and not yet settled; guarded by {@code this}. */
    private int unsettled;
    /** Guarded by {@code this}. */
    private boolean withholding;

    private ProxyStream(String endpoint, Subscribe subscribe, Handler handler, AckBatching batching, ScheduledExecutorService timer,
                        int window) {
        this.endpoint = endpoint;
        this.window = window;
        this.subscribe = subscribe;
        this.handler = handler;
        this.acks = new AckBatcher(batching.maxBatch(), batching.maxDelay(), batching.flushWhenIdle(), timer, this::sendAck);
    }

    /** How this stream's acks are batched; see {@link AckBatcher}. */
    record AckBatching(int maxBatch, Duration maxDelay, boolean flushWhenIdle) {
    }

    /**
     * Opens the call and sends Subscribe; the outcome arrives through {@code handler}.
     *
     * @param timer  runs the ack batches that wait
     * @param window deliveries the proxy may push ahead of the listener; when {@code subscribe} grants none of them,
     *               the stream starts withholding (the subscription is paused)
     */
    static ProxyStream open(ProxyChannels.Target target, Subscribe subscribe, Handler handler, AckBatching batching,
                            ScheduledExecutorService timer, int window) {
        ProxyStream stream = new ProxyStream(target.endpoint(), subscribe, handler, batching, timer, window);
        stream.withholding = subscribe.getInitialCredits() == 0;
        ConsumerProxyGrpc.newStub(target.channel()).consume(stream);
        stream.send(ConsumeRequest.newBuilder().setSubscribe(subscribe).build());
        return stream;
    }

    String endpoint() {
        return endpoint;
    }

    @Override
    public synchronized void beforeStart(ClientCallStreamObserver<ConsumeRequest> requestStream) {
        this.requests = requestStream;
        this.inbound = FrameWindow.onClient(requestStream, INBOUND_CHUNK);
    }

    /** The delivery was processed; its ack, and the credit it returns, leave with the current batch. */
    void ack(long deliveryId) {
        settled();
        acks.acked(deliveryId);
    }

    /** A failed attempt: the proxy redelivers after its backoff for the attempt number; the credit comes back at once. */
    void nack(long deliveryId) {
        nack(Nack.newBuilder().setDeliveryId(deliveryId));
    }

    /** A failed attempt, redelivered no sooner than {@code delay} from now (capped at what the protocol carries). */
    void nack(long deliveryId, Duration delay) {
        nack(Nack.newBuilder().setDeliveryId(deliveryId).setRetryDelayMs((int) Math.min(delay.toMillis(), Integer.MAX_VALUE)));
    }

    /** Tells the proxy the delivery's message goes to the group's dead-letter topic now. */
    void deadLetter(long deliveryId) {
        nack(Nack.newBuilder().setDeliveryId(deliveryId).setDeadLetter(true));
    }

    private void nack(Nack.Builder nack) {
        settled();
        send(ConsumeRequest.newBuilder().setNack(nack).build());
        grant(grantable(1));
        acks.settledWithoutAck();
    }

    private void sendAck(List<Long> deliveryIds, int credits) {
        send(ConsumeRequest.newBuilder().setAck(Ack.newBuilder().addAllDeliveryIds(deliveryIds).setCredits(grantable(credits)))
                .build());
    }

    /** Takes back the credits the proxy has not used, and returns none with settled deliveries until {@link #grantWithheld()}. */
    void withholdCredits() {
        synchronized (this) {
            if (withholding) {
                return;
            }
            withholding = true;
        }
        send(ConsumeRequest.newBuilder().setCredit(CreditGrant.newBuilder().setWithdrawUnused(true)).build());
    }

    /**
     * Grants what fills the window again (the window less what the listener still holds), and returns credits with
     * settled deliveries again. Deliveries still on their way from before the withdrawal, if any, make the window that
     * much larger until they settle.
     */
    void grantWithheld() {
        int credits;
        synchronized (this) {
            if (!withholding) {
                return;
            }
            withholding = false;
            credits = Math.max(0, window - unsettled);
        }
        grant(credits);
    }

    private synchronized void settled() {
        unsettled = Math.max(0, unsettled - 1);
    }

    /** {@code credits}, or none while withholding. */
    private synchronized int grantable(int credits) {
        return withholding ? 0 : credits;
    }

    private void grant(int credits) {
        if (credits > 0) {
            send(ConsumeRequest.newBuilder().setCredit(CreditGrant.newBuilder().setCredits(credits)).build());
        }
    }

    /** Ends the stream from this side, after the acks gathered so far; deliveries not acked by now are redelivered by the proxy. */
    void finish() {
        acks.flush();
        synchronized (this) {
            if (ended) {
                return;
            }
            ended = true;
            try {
                requests.onCompleted();
            } catch (RuntimeException e) {
                log.debug("stream to {} already closed: {}", endpoint, e.toString());
            }
        }
    }

    /** Cancels the call at once (nothing more will be acked on it). */
    void cancel(String why) {
        synchronized (this) {
            if (ended) {
                return;
            }
            ended = true;
            requests.cancel(why, null);
        }
    }

    synchronized boolean isOpen() {
        return !ended;
    }

    private synchronized void send(ConsumeRequest request) {
        if (ended) {
            return;
        }
        try {
            requests.onNext(request);
        } catch (RuntimeException e) {
            // The call already failed; onError reports it.
            log.debug("dropped a {} frame for the ended stream to {}: {}", request.getFrameCase(), endpoint, e.toString());
        }
    }

    @Override
    public void onNext(ConsumeResponse response) {
        switch (response.getFrameCase()) {
            case SUBSCRIBED -> handler.subscribed(this, response.getSubscribed());
            case DELIVERY -> delivered(response.getDelivery());
            case DELIVERIES -> response.getDeliveries().getDeliveriesList().forEach(this::delivered);
            case STATUS -> log.info("consumer proxy {} on {}@{}: {} {} (delivery {})", endpoint, subscribe.getConsumerGroup(),
                    subscribe.getLogicTopic(), response.getStatus().getCode(), response.getStatus().getMessage(),
                    response.getStatus().getDeliveryId());
            case FRAME_NOT_SET -> log.debug("consumer proxy {} sent an empty frame (newer protocol?); ignored", endpoint);
        }
        inbound.processed();
    }

    private void delivered(Delivery delivery) {
        synchronized (this) {
            unsettled++;
        }
        acks.received();
        handler.delivered(this, delivery);
    }

    @Override
    public void onError(Throwable t) {
        synchronized (this) {
            ended = true;
        }
        handler.ended(this, Status.fromThrowable(t));
    }

    @Override
    public void onCompleted() {
        synchronized (this) {
            ended = true;
        }
        handler.ended(this, Status.UNAVAILABLE.withDescription("the proxy ended the stream"));
    }
}

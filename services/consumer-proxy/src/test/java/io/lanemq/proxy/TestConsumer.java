package io.lanemq.proxy;

import io.lanemq.config.ProducerConfig;
import io.lanemq.grpc.server.GrpcServerLimits;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.MetadataUtils;
import io.grpc.stub.StreamObserver;
import io.lanemq.proxy.protocol.Ack;
import io.lanemq.proxy.protocol.ConsumeRequest;
import io.lanemq.proxy.protocol.ConsumeResponse;
import io.lanemq.proxy.protocol.ConsumerProxyGrpc;
import io.lanemq.proxy.protocol.CreditGrant;
import io.lanemq.proxy.protocol.Delivery;
import io.lanemq.proxy.protocol.Nack;
import io.lanemq.proxy.protocol.ProxyHeaders;
import io.lanemq.proxy.protocol.Subscribe;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

/**
 * A test-side consumer over a real TLS gRPC channel: subscribes, records every frame, and either
 * acks each delivery at once and grants a credit back (auto mode) or leaves acks to the test.
 */
final class TestConsumer implements AutoCloseable {
    final String name;
    final List<Delivery> deliveries = new CopyOnWriteArrayList<>();
    final List<Delivery> acked = new CopyOnWriteArrayList<>();
    /** How many Deliveries frames (several deliveries in one) arrived. */
    final AtomicInteger batchFrames = new AtomicInteger();
    final List<io.lanemq.proxy.protocol.Status> statuses = new CopyOnWriteArrayList<>();
    final AtomicReference<ConsumeResponse> subscribed = new AtomicReference<>();
    final AtomicReference<Status> ended = new AtomicReference<>();
    private final ManagedChannel channel;
    private final Predicate<Delivery> autoAck;
    private StreamObserver<ConsumeRequest> requests;

    /** @param autoAck which deliveries to ack (and re-credit) at once; the rest are left to the test */
    private TestConsumer(String name, InetSocketAddress proxy, Metadata headers, Predicate<Delivery> autoAck) {
        this.name = name;
        this.autoAck = autoAck;
        this.channel = NettyChannelBuilder.forAddress(proxy.getHostString(), proxy.getPort(), TestTls.clientCredentials())
                .overrideAuthority("127.0.0.1")
                // As the SDK's channel: any frame the proxy may push, whatever producer.maxBodyBytes is.
                .maxInboundMessageSize(GrpcServerLimits.maxFrameBytes(ProducerConfig.MAX_BODY_BYTES_LIMIT))
                .build();
        this.requests = ConsumerProxyGrpc.newStub(channel)
                .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers))
                .consume(new Responses());
    }

    static TestConsumer open(String name, InetSocketAddress proxy, String application, String token, Predicate<Delivery> autoAck) {
        return new TestConsumer(name, proxy, ProxyHeaders.credentials(application, token), autoAck);
    }

    /** A consumer whose call carries {@code headers} as they are (to test authentication). */
    static TestConsumer withHeaders(String name, InetSocketAddress proxy, Metadata headers) {
        return new TestConsumer(name, proxy, headers, d -> true);
    }

    TestConsumer subscribe(String application, String group, String logicTopic, int credits) {
        return subscribe(application, group, logicTopic, credits, false);
    }

    /** @param acceptsBatches whether the proxy may push several deliveries in one Deliveries frame */
    TestConsumer subscribe(String application, String group, String logicTopic, int credits, boolean acceptsBatches) {
        send(ConsumeRequest.newBuilder().setSubscribe(Subscribe.newBuilder().setApplication(application)
                .setConsumerGroup(group).setLogicTopic(logicTopic).setConsumerId(name).setInitialCredits(credits)
                .setAcceptsBatches(acceptsBatches)).build());
        return this;
    }

    synchronized void send(ConsumeRequest request) {
        requests.onNext(request);
    }

    void ack(Delivery delivery) {
        send(ConsumeRequest.newBuilder().setAck(Ack.newBuilder().addDeliveryIds(delivery.getDeliveryId())).build());
        acked.add(delivery);
    }

    void nack(Delivery delivery, int delayMs) {
        send(ConsumeRequest.newBuilder().setNack(Nack.newBuilder().setDeliveryId(delivery.getDeliveryId())
                .setRetryDelayMs(delayMs)).build());
    }

    /** Nacks the delivery with dead_letter: to the group's dead-letter topic now. */
    void deadLetter(Delivery delivery) {
        send(ConsumeRequest.newBuilder().setNack(Nack.newBuilder().setDeliveryId(delivery.getDeliveryId())
                .setDeadLetter(true)).build());
    }

    void grant(int credits) {
        send(ConsumeRequest.newBuilder().setCredit(CreditGrant.newBuilder().setCredits(credits)).build());
    }

    /** Ends the stream as a well-behaved client would. */
    synchronized void complete() {
        requests.onCompleted();
    }

    /** Drops the connection without ending the stream, as a crashed consumer would. */
    void kill() {
        channel.shutdownNow();
    }

    @Override
    public void close() throws InterruptedException {
        try {
            complete();
        } catch (RuntimeException e) {
            // already closed
        }
        channel.shutdownNow();
        channel.awaitTermination(5, TimeUnit.SECONDS);
    }

    private final class Responses implements StreamObserver<ConsumeResponse> {
        @Override
        public void onNext(ConsumeResponse response) {
            switch (response.getFrameCase()) {
                case SUBSCRIBED -> subscribed.set(response);
                case STATUS -> statuses.add(response.getStatus());
                case DELIVERY -> delivered(response.getDelivery());
                case DELIVERIES -> {
                    batchFrames.incrementAndGet();
                    response.getDeliveries().getDeliveriesList().forEach(this::delivered);
                }
                default -> {
                }
            }
        }

        private void delivered(Delivery delivery) {
            deliveries.add(delivery);
            if (autoAck.test(delivery)) {
                send(ConsumeRequest.newBuilder().setAck(Ack.newBuilder().addDeliveryIds(delivery.getDeliveryId())).build());
                acked.add(delivery);
                send(ConsumeRequest.newBuilder().setCredit(CreditGrant.newBuilder().setCredits(1)).build());
            }
        }

        @Override
        public void onError(Throwable t) {
            ended.set(Status.fromThrowable(t));
        }

        @Override
        public void onCompleted() {
            ended.set(Status.OK);
        }
    }
}

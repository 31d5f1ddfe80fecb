package io.lanemq.proxy;

import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.lanemq.grpc.server.BearerTokenInterceptor;
import io.lanemq.grpc.server.MalformedMessageGuard;
import io.lanemq.proxy.protocol.ConsumeRequest;
import io.lanemq.proxy.protocol.ConsumeResponse;
import io.lanemq.proxy.protocol.ConsumerProxyGrpc;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/** The gRPC service: one {@link StreamSession} per {@code Consume} call, tracked so shutdown can reach them. */
final class ConsumerProxyService extends ConsumerProxyGrpc.ConsumerProxyImplBase {
    private final GroupRegistry groups;
    private final ProxyServerOptions config;
    private final ProxyMetrics metrics;
    private final Set<StreamSession> streams = ConcurrentHashMap.newKeySet();

    ConsumerProxyService(GroupRegistry groups, ProxyServerOptions config, ProxyMetrics metrics) {
        this.groups = groups;
        this.config = config;
        this.metrics = metrics;
    }

    @Override
    public StreamObserver<ConsumeRequest> consume(StreamObserver<ConsumeResponse> responseObserver) {
        StreamSession stream = new StreamSession((ServerCallStreamObserver<ConsumeResponse>) responseObserver,
                BearerTokenInterceptor.APPLICATION.get(), groups, config, metrics, streams::remove);
        streams.add(stream);
        MalformedMessageGuard.ON_REFUSED.get().set(stream::endedOnMalformedFrame);
        return stream;
    }

    List<StreamSession> streams() {
        return List.copyOf(streams);
    }

    void drainAll() {
        drain(stream -> true);
    }

    void endAll(Status status) {
        end(stream -> true, status);
    }

    /** Tells the matching streams DRAINING. */
    void drain(Predicate<StreamSession> which) {
        for (StreamSession stream : streams()) {
            if (!which.test(stream)) {
                continue;
            }
            try {
                stream.draining();
            } catch (RuntimeException e) {
                // That stream is ending anyway.
            }
        }
    }

    void end(Predicate<StreamSession> which, Status status) {
        streams().stream().filter(which).forEach(stream -> stream.end(status));
    }
}

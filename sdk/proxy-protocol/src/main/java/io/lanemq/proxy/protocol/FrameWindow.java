package io.lanemq.proxy.protocol;

import io.grpc.stub.CallStreamObserver;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ServerCallStreamObserver;

/**
 * Asks gRPC for a {@code Consume} stream's inbound frames in chunks instead of one at a time.
 *
 * <p>By default a gRPC stub requests the next inbound message only after the application's handler
 * returned from the previous one, and that request travels back to the transport thread: every frame
 * then costs two thread hand-offs in series, which caps one stream at a few hundred frames per second
 * on a busy machine however much CPU is free. With a window of frames requested ahead the transport
 * hands over whatever has arrived in one go. The window bounds memory: at most {@code 2 * chunk}
 * frames are requested and not yet processed (the peer is bounded anyway, by credits one way and by
 * the deliveries it holds the other).
 *
 * <p>Call {@link #processed()} once per inbound frame, from the stream's (serial) message callback.
 */
public final class FrameWindow {
    private final CallStreamObserver<?> call;
    private final int chunk;
    private int sinceRequest;

    private FrameWindow(CallStreamObserver<?> call, int chunk) {
        this.call = call;
        this.chunk = chunk;
    }

    /**
     * For a server call: turns off gRPC's one-at-a-time requests and requests the first window. Call
     * before the service method returns.
     */
    public static FrameWindow onServer(ServerCallStreamObserver<?> call, int chunk) {
        requirePositive(chunk);
        call.disableAutoRequest();
        call.request(2 * chunk);
        return new FrameWindow(call, chunk);
    }

    /** For a client call: call from {@code ClientResponseObserver.beforeStart}. */
    public static FrameWindow onClient(ClientCallStreamObserver<?> call, int chunk) {
        requirePositive(chunk);
        call.disableAutoRequestWithInitial(2 * chunk);
        return new FrameWindow(call, chunk);
    }

    /** One inbound frame was handled: once a chunk of them was, the next chunk is requested. */
    public void processed() {
        if (++sinceRequest >= chunk) {
            sinceRequest = 0;
            call.request(chunk);
        }
    }

    private static void requirePositive(int chunk) {
        if (chunk < 1) {
            throw new IllegalArgumentException("chunk must be at least 1, was " + chunk);
        }
    }
}

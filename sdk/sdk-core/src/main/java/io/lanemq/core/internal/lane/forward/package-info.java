/**
 * Lane forwarding transport: how one SDK instance hands a message it consumed to another instance of
 * the same consumer group (the one serving the message's lane) and learns whether that instance's
 * listener processed it. Which instance to call, and when, is decided elsewhere (the lane routing);
 * this package only moves the message and the answer. The wire contract is
 * {@code lanemq_lane_forward.proto} in proxy-protocol.
 *
 * <h2>Shape</h2>
 * Every instance that consumes with lanes runs a {@link io.lanemq.core.internal.lane.forward.LaneForwardServer}
 * (one unary gRPC method, {@code LaneForward/Consume}) whose
 * {@link io.lanemq.core.internal.lane.forward.LaneForwardHandler} gives the message to the local listener of the
 * named group, and a {@link io.lanemq.core.internal.lane.forward.LaneForwardClient} to call the others.
 * {@code forward(target, group, message)} blocks until the target's listener answered
 * ({@code SUCCESS} or {@code RETRY_LATER}) or throws a
 * {@link io.lanemq.core.internal.lane.forward.LaneForwardException} with the gRPC code: {@code UNAVAILABLE},
 * {@code DEADLINE_EXCEEDED}, {@code NOT_FOUND} (the target does not consume the group),
 * {@code UNAUTHENTICATED}, {@code RESOURCE_EXHAUSTED} (all its listener threads busy). Anything but
 * {@code SUCCESS} means "not consumed": the caller acknowledges nothing, so delivery stays at least once
 * (a deadline that passed while the target's listener ran can make a duplicate; listeners are idempotent
 * on the message id as for any LaneMQ delivery). The forwarded message is a
 * {@link io.lanemq.core.internal.lane.forward.ForwardedMessage} carrying every field of the original, properties
 * (and so the lane) intact.
 *
 * <h2>Threads and limits</h2>
 * The server never runs a listener on a Netty event loop: calls are handed to
 * {@link io.lanemq.core.internal.lane.forward.ForwardServerOptions#threads()} threads of its own with a queue of
 * {@link io.lanemq.core.internal.lane.forward.ForwardServerOptions#queueCapacity()}; beyond that a call is refused
 * at once with {@code RESOURCE_EXHAUSTED} instead of queueing without bound. A message that waited past
 * its caller's deadline is dropped unprocessed (the caller already counts it as not consumed). The client
 * keeps one channel per target, closes channels unused for
 * {@link io.lanemq.core.internal.lane.forward.ForwardClientOptions#idleTimeout()}, and re-dials a target that was
 * down as soon as it is asked for again.
 *
 * <p>The server applies {@link io.lanemq.grpc.server.GrpcServerLimits} (handshake timeout, connection cap, calls per
 * connection, keepalive, idle, metadata size; defaults and reasons there) on event loops of its own. Both ends take
 * their message limit from the platform's {@code producer.maxBodyBytes} plus framing room
 * ({@link io.lanemq.grpc.server.GrpcServerLimits#maxFrameBytes(int)}): the client refuses a larger request before
 * sending it ({@code RESOURCE_EXHAUSTED} naming the logic topic, its size and the limit), the server refuses one
 * from a client that did not with {@code RESOURCE_EXHAUSTED} naming the limit (counted as {@code too_large}); its
 * transport takes up to twice the limit for that, and resets the stream ({@code CANCELLED}) beyond.
 *
 * <h2>Security</h2>
 * TLS always: the server presents a PEM certificate chain and PKCS#8 key; the client trusts only the
 * configured CA and verifies that the certificate names the address it dialled (IP SAN for an IP). Every
 * call carries {@code authorization: Bearer <token>}, a deployment-wide secret compared in constant time;
 * a missing or wrong token is refused with {@code UNAUTHENTICATED} before the request is read, so the
 * listener never sees it. A plaintext client, garbage bytes or a client refusing the certificate only
 * cost that connection; an authenticated call whose bytes are not a request ends with
 * {@code INVALID_ARGUMENT}. Refusals are counted
 * ({@value io.lanemq.core.internal.lane.forward.LaneForwardMetrics#REJECTED}, by {@code reason}) and logged at most
 * once a minute with the count, so a scanner cannot flood the log. Settings print the token as
 * {@code ***}.
 *
 * <h2>Metrics</h2>
 * {@link io.lanemq.core.internal.lane.forward.LaneForwardMetrics}: {@code lanemq.lane.forward.served}
 * {group, result}, {@code lanemq.lane.forward.rejected} {reason}, {@code lanemq.lane.forward.calls}
 * {group, outcome} (timer).
 */
package io.lanemq.core.internal.lane.forward;

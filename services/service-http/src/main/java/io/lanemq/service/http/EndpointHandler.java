package io.lanemq.service.http;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Answers the three paths. {@code /livez} and {@code /readyz} on the event loop (they read a few fields);
 * {@code /metrics} on the scrape executor, with the connection's reading paused meanwhile so a pipelined request
 * behind it is answered after it, in order. Errors are answered and the connection closed. Shared by every channel
 * of the server.
 */
@ChannelHandler.Sharable
final class EndpointHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
    private static final String PROMETHEUS_TYPE = "text/plain; version=0.0.4; charset=utf-8";
    private static final String TEXT_TYPE = "text/plain; charset=utf-8";

    private final PrometheusMeterRegistry registry;
    private final Readiness readiness;
    private final Executor scrapes;

    EndpointHandler(PrometheusMeterRegistry registry, Readiness readiness, Executor scrapes) {
        this.registry = registry;
        this.readiness = readiness;
        this.scrapes = scrapes;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        if (request.decoderResult().isFailure()) {
            answer(ctx, HttpResponseStatus.BAD_REQUEST, "bad request\n", false, false);
            return;
        }
        String path = path(request.uri());
        boolean known = ServiceEndpoints.METRICS_PATH.equals(path) || ServiceEndpoints.LIVENESS_PATH.equals(path)
                || (readiness != null && ServiceEndpoints.READINESS_PATH.equals(path));
        if (!known) {
            answer(ctx, HttpResponseStatus.NOT_FOUND, "", false, false);
            return;
        }
        HttpMethod method = request.method();
        boolean head = HttpMethod.HEAD.equals(method);
        if (!head && !HttpMethod.GET.equals(method)) {
            FullHttpResponse refused = response(HttpResponseStatus.METHOD_NOT_ALLOWED, TEXT_TYPE, "", false);
            refused.headers().set(HttpHeaderNames.ALLOW, "GET, HEAD");
            send(ctx, refused, false);
            return;
        }
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        switch (path) {
            case ServiceEndpoints.LIVENESS_PATH -> answer(ctx, HttpResponseStatus.OK, "OK\n", head, keepAlive);
            case ServiceEndpoints.READINESS_PATH -> {
                ServiceEndpoints.Health now = readiness.health();
                String text = now.text().endsWith("\n") ? now.text() : now.text() + "\n";
                answer(ctx, now.up() ? HttpResponseStatus.OK : HttpResponseStatus.SERVICE_UNAVAILABLE, text, head, keepAlive);
            }
            default -> scrape(ctx, head, keepAlive);
        }
    }

    private void scrape(ChannelHandlerContext ctx, boolean head, boolean keepAlive) {
        ctx.channel().config().setAutoRead(false);
        try {
            scrapes.execute(() -> {
                FullHttpResponse response;
                try {
                    response = response(HttpResponseStatus.OK, PROMETHEUS_TYPE, registry.scrape(), head);
                } catch (RuntimeException e) {
                    response = response(HttpResponseStatus.INTERNAL_SERVER_ERROR, TEXT_TYPE, "scrape failed: " + e + "\n", head);
                }
                send(ctx, response, keepAlive);
                ctx.channel().config().setAutoRead(true);
            });
        } catch (RejectedExecutionException stopping) {
            // The server is closing. Otherwise the queue is bounded already: one scrape per connection at most
            // (reading is paused until it is answered), and the connections are capped.
            answer(ctx, HttpResponseStatus.SERVICE_UNAVAILABLE, "stopping\n", head, false);
        }
    }

    /** The path of a request target, or null when it does not parse (then 404). */
    private static String path(String target) {
        try {
            return URI.create(target).getPath();
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static void answer(ChannelHandlerContext ctx, HttpResponseStatus status, String text, boolean head,
                               boolean keepAlive) {
        send(ctx, response(status, TEXT_TYPE, text, head), keepAlive && status.code() < 400);
    }

    private static FullHttpResponse response(HttpResponseStatus status, String type, String text, boolean head) {
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                head ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(body));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, type).setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
        return response;
    }

    private static void send(ChannelHandlerContext ctx, FullHttpResponse response, boolean keepAlive) {
        if (!keepAlive) {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        }
        var written = ctx.writeAndFlush(response);
        if (!keepAlive) {
            written.addListener(ChannelFutureListener.CLOSE);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // A reset or a half-closed hostile connection: nothing worth a line per connection.
        ctx.close();
    }
}

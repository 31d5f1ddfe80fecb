package io.lanemq.service.http;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Closes a connection that has not sent a whole request within the timeout of its opening or of its previous
 * answer. A whole deadline, not an idle one: a client that trickles a byte a second never completes a request and is
 * closed all the same. One per connection; runs on its event loop.
 */
final class RequestDeadline extends ChannelDuplexHandler {
    private final long timeoutNanos;
    private ScheduledFuture<?> timer;

    RequestDeadline(Duration timeout) {
        this.timeoutNanos = timeout.toNanos();
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        arm(ctx);
        super.channelActive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof FullHttpRequest) {
            disarm();
        }
        super.channelRead(ctx, msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        if (msg instanceof FullHttpResponse) {
            // The next request's time starts when this answer has left.
            promise = promise.unvoid().addListener(written -> {
                if (ctx.channel().isActive()) {
                    arm(ctx);
                }
            });
        }
        super.write(ctx, msg, promise);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        disarm();
        super.channelInactive(ctx);
    }

    private void arm(ChannelHandlerContext ctx) {
        disarm();
        timer = ctx.executor().schedule(() -> {
            ctx.close();
        }, timeoutNanos, TimeUnit.NANOSECONDS);
    }

    private void disarm() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }
}

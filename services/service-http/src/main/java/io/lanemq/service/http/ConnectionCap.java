package io.lanemq.service.http;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Bounds the open connections of one server: past {@code max}, each new connection closes the oldest. Refusing the
 * new one instead would let a flood of idle connections shut every probe out; the oldest is the one most likely
 * idle or hostile, since a probe's connection lives for milliseconds. Shared by every channel of the server.
 */
@ChannelHandler.Sharable
final class ConnectionCap extends ChannelInboundHandlerAdapter {
    private final int max;
    /** In order of opening: the first is the oldest. */
    private final Set<Channel> open = new LinkedHashSet<>();

    ConnectionCap(int max) {
        this.max = max;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        Channel oldest = null;
        synchronized (open) {
            open.add(ctx.channel());
            if (open.size() > max) {
                Iterator<Channel> first = open.iterator();
                oldest = first.next();
                first.remove();
            }
        }
        if (oldest != null) {
            oldest.close();
        }
        super.channelActive(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        synchronized (open) {
            open.remove(ctx.channel());
        }
        super.channelInactive(ctx);
    }
}

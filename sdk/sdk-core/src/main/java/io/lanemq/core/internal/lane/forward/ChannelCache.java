package io.lanemq.core.internal.lane.forward;

import io.grpc.ConnectivityState;
import io.grpc.ManagedChannel;
import io.lanemq.support.Ticker;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.function.Function;

/**
 * One channel per target, opened on first use and closed once unused for the idle timeout (lane
 * consumers come and go with deployments, so targets do not accumulate). A closed channel finishes the
 * calls it carries. Time comes from an injected ticker so tests need not wait.
 */
final class ChannelCache implements AutoCloseable {
    private final Function<InetSocketAddress, ManagedChannel> open;
    private final long idleNanos;
    private final Ticker ticker;
    private final Map<InetSocketAddress, Entry> channels = new HashMap<>();
    private boolean closed;

    ChannelCache(Function<InetSocketAddress, ManagedChannel> open, long idleNanos, Ticker ticker) {
        this.open = open;
        this.idleNanos = idleNanos;
        this.ticker = ticker;
    }

    /** The target's channel, ready to be tried now. */
    synchronized ManagedChannel channel(InetSocketAddress target) {
        if (closed) {
            throw new IllegalStateException("the lane forward client is closed");
        }
        long now = ticker.read();
        evictIdle(now);
        Entry entry = channels.computeIfAbsent(target, address -> new Entry(open.apply(address)));
        entry.lastUsed = now;
        // A target that was down has its reconnect backed off (up to two minutes): the caller only asks for a
        // target it believes live, so try it at once rather than fail fast until the backoff ends.
        if (entry.channel.getState(false) == ConnectivityState.TRANSIENT_FAILURE) {
            entry.channel.resetConnectBackoff();
        }
        return entry.channel;
    }

    synchronized int size() {
        return channels.size();
    }

    private void evictIdle(long now) {
        for (Iterator<Entry> entries = channels.values().iterator(); entries.hasNext(); ) {
            Entry entry = entries.next();
            if (now - entry.lastUsed >= idleNanos) {
                entry.channel.shutdown();
                entries.remove();
            }
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        channels.values().forEach(entry -> entry.channel.shutdownNow());
        channels.clear();
    }

    private static final class Entry {
        final ManagedChannel channel;
        long lastUsed;

        Entry(ManagedChannel channel) {
            this.channel = channel;
        }
    }
}

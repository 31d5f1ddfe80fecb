package io.lanemq.proxy;

import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.ServerChannel;
import io.grpc.netty.shaded.io.netty.channel.epoll.Epoll;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollServerSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.nio.NioEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioServerSocketChannel;
import io.grpc.netty.shaded.io.netty.util.concurrent.DefaultThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * The gRPC server's own Netty threads. By default grpc-java runs every server and client channel of a
 * JVM on one shared group of event loops: a proxy that is also a gRPC client (of etcd), or that shares
 * its JVM with consumers (tests, the P3 benchmark), then has some connections with both ends on one
 * thread, and those consumers see shorter round trips and take larger shares; client traffic would also
 * delay deliveries. Epoll where the platform has it, NIO elsewhere.
 */
final class ServerEventLoops implements AutoCloseable {
    private final EventLoopGroup acceptor;
    private final EventLoopGroup workers;
    private final Class<? extends ServerChannel> channelType;

    private ServerEventLoops(EventLoopGroup acceptor, EventLoopGroup workers, Class<? extends ServerChannel> channelType) {
        this.acceptor = acceptor;
        this.workers = workers;
        this.channelType = channelType;
    }

    static ServerEventLoops create(int workerThreads) {
        DefaultThreadFactory acceptThreads = new DefaultThreadFactory("lanemq-proxy-accept", true);
        DefaultThreadFactory ioThreads = new DefaultThreadFactory("lanemq-proxy-io", true);
        if (Epoll.isAvailable()) {
            return new ServerEventLoops(new EpollEventLoopGroup(1, acceptThreads), new EpollEventLoopGroup(workerThreads, ioThreads),
                    EpollServerSocketChannel.class);
        }
        return new ServerEventLoops(new NioEventLoopGroup(1, acceptThreads), new NioEventLoopGroup(workerThreads, ioThreads),
                NioServerSocketChannel.class);
    }

    NettyServerBuilder applyTo(NettyServerBuilder builder) {
        return builder.bossEventLoopGroup(acceptor).workerEventLoopGroup(workers).channelType(channelType);
    }

    /** After the server terminated: the threads finish what is queued and stop. */
    @Override
    public void close() {
        acceptor.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        workers.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }
}

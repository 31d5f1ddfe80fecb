package io.lanemq.rocketmq.reader;

import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.api.MessagingException;
import io.lanemq.api.spi.ClusterEndpoint;
import io.lanemq.rocketmq.RawClientSupport;
import io.lanemq.support.NamedThreads;
import io.lanemq.support.TcpReach;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.rocketmq.common.constant.PermName;
import org.apache.rocketmq.remoting.RPCHook;
import org.apache.rocketmq.remoting.exception.RemotingException;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RequestCode;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.remoting.protocol.header.namesrv.GetRouteInfoRequestHeader;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;

/**
 * Asks one cluster's name servers for a topic's route before a reader starts, each within a short bound: a silent name
 * server fails the check in {@link #CONNECT_TIMEOUT} (its connect is not answered), one that answers does so in
 * milliseconds, and none is waited on longer than {@link #ANSWER_TIMEOUT}.
 *
 * <p>Why not through the consumer: its client waits 3 s per connect and per route query, behind a lock other clients of
 * the instance may hold, then gives up silently; an attempt that waited that out each time could not attach within
 * seconds of a heal. So the check has a RocketMQ remoting client of its own (the endpoint's TLS and request signer),
 * kept by whoever retries (one per cluster it attaches) for all its attempts: RocketMQ's client takes up to 3 s to shut
 * down (it joins its event thread), so {@link #close()} lets it do so on a thread of its own.
 *
 * <p>Thread-safe; {@link #require} fails once closed.
 */
public final class RouteCheck implements AutoCloseable {
    /** Long enough for a connect on a LAN under load, short enough to tell a silent name server at once. */
    public static final Duration CONNECT_TIMEOUT = TcpReach.NAME_SERVER_CONNECT_TIMEOUT;
    /** Connect plus answer, per name server: a name server answers a route query from memory. */
    public static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(1);

    private final String cluster;
    private final boolean tls;
    private final RPCHook signer;
    private final List<String> nameServers = new ArrayList<>();
    /** Started on first use, so that a check never used holds no threads; guarded by this. */
    private NettyRemotingClient client;
    private boolean closed;

    private RouteCheck(ClusterEndpoint endpoint, RPCHook signer) {
        this.cluster = endpoint.clusterName();
        this.tls = endpoint.tls();
        this.signer = signer;
        for (String address : endpoint.nameServerAddress().split(";")) {
            nameServers.add(address.strip());
        }
    }

    private synchronized NettyRemotingClient client() {
        if (closed) {
            throw new IllegalStateException("route check of cluster " + cluster + " is closed");
        }
        if (client == null) {
            NettyClientConfig config = new NettyClientConfig();
            config.setConnectTimeoutMillis((int) CONNECT_TIMEOUT.toMillis());
            config.setUseTLS(tls);
            config.setScanAvailableNameSrv(false);
            config.setClientWorkerThreads(1);
            config.setClientCallbackExecutorThreads(1);
            client = new NettyRemotingClient(config);
            if (signer != null) {
                client.registerRPCHook(signer);
            }
            client.start();
        }
        return client;
    }

    /**
     * A check of {@code endpoint}'s name servers; its client starts on first use.
     *
     * @throws InvalidConfigurationException the endpoint's credentials cannot be read
     */
    public static RouteCheck of(ClusterEndpoint endpoint) throws InvalidConfigurationException {
        return new RouteCheck(endpoint, RawClientSupport.rpcHook(endpoint));
    }

    /**
     * Returns when a name server routes {@code topic} to at least one readable queue; asks each name server in turn
     * (connect within {@link #CONNECT_TIMEOUT}, answer within {@link #ANSWER_TIMEOUT}).
     *
     * @throws MessagingException naming the topic and the cluster: no name server answered (each one's reason given), or
     *                            the one that answered does not route the topic (unknown, or no readable queue), which a
     *                            name server back from a partition may say until the brokers registered again
     */
    public void require(String topic) throws MessagingException {
        NettyRemotingClient client = client();
        List<String> silent = new ArrayList<>();
        try {
            for (String address : nameServers) {
                RemotingCommand answer;
                try {
                    answer = client.invokeSync(address, request(topic), ANSWER_TIMEOUT.toMillis());
                } catch (RemotingException e) {
                    silent.add(address + ": " + e.getMessage());
                    continue;
                }
                if (answer.getCode() == ResponseCode.SUCCESS && readable(answer)) {
                    return;
                }
                throw new MessagingException("the name server " + address + " of cluster '" + cluster + "' does not route "
                        + "topic " + topic + (answer.getCode() == ResponseCode.TOPIC_NOT_EXIST ? "" : " to a readable queue")
                        + " (yet: brokers register their topics with their heartbeat; if it lasts, create the topic there)",
                        null, cluster);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MessagingException("interrupted while asking the route of topic " + topic, null, cluster, e);
        }
        throw new MessagingException("no name server of cluster '" + cluster + "' answered for the route of topic " + topic
                + " within " + ANSWER_TIMEOUT.toMillis() + " ms (" + String.join(", ", silent) + ")", null, cluster);
    }

    private static RemotingCommand request(String topic) {
        GetRouteInfoRequestHeader header = new GetRouteInfoRequestHeader();
        header.setTopic(topic);
        return RemotingCommand.createRequestCommand(RequestCode.GET_ROUTEINFO_BY_TOPIC, header);
    }

    private static boolean readable(RemotingCommand answer) {
        if (answer.getBody() == null) {
            return false;
        }
        TopicRouteData route = TopicRouteData.decode(answer.getBody(), TopicRouteData.class);
        return route.getBrokerDatas() != null && !route.getBrokerDatas().isEmpty() && route.getQueueDatas() != null
                && route.getQueueDatas().stream().anyMatch(queues -> queues.getReadQueueNums() > 0
                        && PermName.isReadable(queues.getPerm()));
    }

    /** Idempotent; returns at once, the client shutting down on a thread of its own. */
    @Override
    public synchronized void close() {
        if (!closed && client != null) {
            NamedThreads.start("lanemq-route-check-close-" + cluster, client::shutdown);
        }
        closed = true;
    }
}

package io.lanemq.testkit;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Optional;

/**
 * A master broker of one IDC's cluster. It serves when its IDC's name server lists it in the cluster info, so
 * starting a broker needs the name server of its IDC to be running.
 */
public final class BrokerNode extends ServerNode {

    /** Where a broker of an IDC with {@link IdcSpec.Builder#latencyProxy} listens; its proxy listens on HOST. */
    public static final String PROXIED_BIND_HOST = "127.0.0.2";

    // RocketMQ's VIP channel: a second server on the listen port - 2, which clients use if vipChannelEnabled.
    private static final int VIP_PORT_OFFSET = 2;

    private final String idcName;
    private final String clusterName;
    private final String brokerName;
    private final ClusterAdmin admin;
    private final LatencyProxy latencyProxy;

    BrokerNode(String idcName, String clusterName, String brokerName, int port, ChildProcess child, StackSpec spec,
               ClusterAdmin admin, LatencyProxy latencyProxy) {
        super(port, child, spec);
        this.idcName = idcName;
        this.clusterName = clusterName;
        this.brokerName = brokerName;
        this.admin = admin;
        this.latencyProxy = latencyProxy;
    }

    /** The broker's TCP ports: listen, VIP (listen - 2) and HA (listen + 1). */
    public List<Integer> ports() {
        return List.of(port(), port() - VIP_PORT_OFFSET, port() + 1);
    }

    /**
     * The proxy in front of a broker that binds {@value #PROXIED_BIND_HOST}:{@code port}. It forwards the VIP
     * port too: 5.3.3 clients leave the VIP channel off by default, but one that turns it on
     * ({@code setVipChannelEnabled(true)} or {@code -Dcom.rocketmq.sendMessageWithVIPChannel=true}) must meet
     * the same slow broker, not a refused connection.
     */
    static LatencyProxy startLatencyProxy(int port) {
        return LatencyProxy.start(List.of(proxyRoute(port), proxyRoute(port - VIP_PORT_OFFSET)));
    }

    private static LatencyProxy.Route proxyRoute(int port) {
        return new LatencyProxy.Route(
            new InetSocketAddress(HOST, port), new InetSocketAddress(PROXIED_BIND_HOST, port));
    }

    /** Broker names are unique across the stack: {@code <idc>-broker-<index>}, e.g. {@code idc-a-broker-0}. */
    static String brokerName(String idcName, int index) {
        return idcName + "-broker-" + index;
    }

    public String brokerName() {
        return brokerName;
    }

    public String clusterName() {
        return clusterName;
    }

    public String idcName() {
        return idcName;
    }

    /**
     * The proxy every client connection to this broker goes through, present when its IDC was built with
     * {@link IdcSpec.Builder#latencyProxy}: {@code latencyProxy().orElseThrow().setDelay(Duration.ofMillis(100))}
     * makes this broker answer 100 ms later. The proxy outlives kills and restarts of the broker and is closed
     * with the stack; while the broker is down, it refuses connections.
     */
    public Optional<LatencyProxy> latencyProxy() {
        return Optional.ofNullable(latencyProxy);
    }

    /** A dead broker's proxy refuses connections, as the broker's own port would. */
    @Override
    void exited() {
        if (latencyProxy != null) {
            latencyProxy.refuseConnections();
        }
    }

    @Override
    void listening() {
        if (latencyProxy != null) {
            latencyProxy.acceptConnections();
        }
    }

    /** Closes the proxy, if any: the end of the stack. */
    void closeLatencyProxy() {
        if (latencyProxy != null) {
            latencyProxy.close();
        }
    }

    @Override
    void awaitServing(Deadline deadline) {
        if (!deadline.await(() -> admin.lists(this))) {
            throw child().failure("started, but the name server of " + idcName + " did not list it in "
                + clusterName + " within " + deadline.budget().toSeconds() + " s");
        }
    }

    @Override
    public String toString() {
        return "broker " + brokerName + " of " + idcName + "/" + clusterName + " (" + address()
            + (latencyProxy == null ? "" : " through a latency proxy to " + PROXIED_BIND_HOST) + ")";
    }
}

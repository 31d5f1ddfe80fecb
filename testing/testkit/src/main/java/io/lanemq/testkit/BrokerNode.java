package io.lanemq.testkit;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Optional;

/**
 * A broker of one IDC's cluster: a master, or the slave of a master in an IDC built with
 * {@link IdcSpec.Builder#slaves}. It serves when its IDC's name server lists it in the cluster info under its
 * broker id, so starting a broker needs the name server of its IDC to be running; a node of a pair whose other
 * node runs serves once the master reports the slave connected for replication (until then a synchronous
 * master holds every send for {@code slaveTimeout}, 3 s, and answers {@code FLUSH_SLAVE_TIMEOUT}).
 *
 * <p>Each node of a pair has its own process: {@link #kill()} of a master leaves its slave running, which is the
 * point of the pair.
 */
public final class BrokerNode extends ServerNode {

    /** Where a broker of an IDC with {@link IdcSpec.Builder#latencyProxy} listens; its proxy listens on HOST. */
    public static final String PROXIED_BIND_HOST = "127.0.0.2";

    // RocketMQ's VIP channel: a second server on the listen port - 2, which clients use if vipChannelEnabled.
    private static final int VIP_PORT_OFFSET = 2;

    /** A broker's place in its broker name: RocketMQ's brokerId 0 (master) or 1 (slave). */
    public enum Role {
        MASTER(0), SLAVE(1);

        private final int brokerId;

        Role(int brokerId) {
            this.brokerId = brokerId;
        }

        /** RocketMQ's {@code brokerId} of this role. */
        public int brokerId() {
            return brokerId;
        }
    }

    private final String idcName;
    private final String clusterName;
    private final String brokerName;
    private final Role role;
    private final ClusterAdmin admin;
    private final LatencyProxy latencyProxy;
    // The other node of a master/slave pair, set once by pair() before anything is launched.
    private BrokerNode partner;

    BrokerNode(String idcName, String clusterName, String brokerName, Role role, int port, ChildProcess child,
               StackSpec spec, ClusterAdmin admin, LatencyProxy latencyProxy) {
        super(port, child, spec);
        this.idcName = idcName;
        this.clusterName = clusterName;
        this.brokerName = brokerName;
        this.role = role;
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

    /** Makes two nodes of one broker name a pair, so each one's start waits for the replication between them. */
    static void pair(BrokerNode master, BrokerNode slave) {
        if (master.role != Role.MASTER || slave.role != Role.SLAVE || !master.brokerName.equals(slave.brokerName)) {
            throw new IllegalArgumentException("not a master/slave pair: " + master + ", " + slave);
        }
        master.partner = slave;
        slave.partner = master;
    }

    /** The broker name, shared by a master and its slave, e.g. {@code idc-a-broker-0}. */
    public String brokerName() {
        return brokerName;
    }

    public Role role() {
        return role;
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
        BrokerNode other = partner;
        if (other != null && other.isAlive()) {
            BrokerNode master = role == Role.MASTER ? this : other;
            if (!deadline.await(() -> admin.replicates(master))) {
                throw child().failure("started, but the slave of " + brokerName + " did not connect to its master's "
                    + "HA port " + (master.port() + 1) + " within " + deadline.budget().toSeconds() + " s");
            }
        }
    }

    @Override
    public String toString() {
        return (role == Role.SLAVE ? "slave " : "broker ") + brokerName + " of " + idcName + "/" + clusterName
            + " (" + address()
            + (latencyProxy == null ? "" : " through a latency proxy to " + PROXIED_BIND_HOST) + ")";
    }
}

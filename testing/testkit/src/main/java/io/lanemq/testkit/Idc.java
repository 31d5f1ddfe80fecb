package io.lanemq.testkit;

import io.lanemq.testkit.process.BrokerProcessMain;
import io.lanemq.testkit.process.NameServerProcessMain;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * One IDC of a {@link RocketMqStack}: a RocketMQ cluster with its own name server and brokers (masters, and with
 * {@link IdcSpec.Builder#slaves} a slave per master). Clients of this IDC use {@link #nameServerAddress()}; the
 * other IDCs' clusters know nothing about this one.
 *
 * <p>The lifecycle methods act on all nodes of the IDC and block until done; they keep ports and store
 * directories, so messages persisted before a {@link #kill()} are there after {@link #start()}.
 *
 * <pre>{@code
 * Idc idcA = stack.idc("idc-a");
 * idcA.kill();   // the whole IDC disappears at once, like a power cut
 * idcA.start();  // name server and brokers back, brokers registered again
 * }</pre>
 */
public final class Idc {

    private final IdcSpec spec;
    private final NameServerNode nameServer;
    private final List<BrokerNode> brokers;
    private final List<BrokerNode> slaves;
    // Masters then slaves: what the lifecycle methods act on.
    private final List<BrokerNode> allBrokers;
    private final ClusterAdmin admin;
    private final StackSpec stackSpec;

    private Idc(IdcSpec spec, NameServerNode nameServer, List<BrokerNode> brokers, List<BrokerNode> slaves,
                ClusterAdmin admin, StackSpec stackSpec) {
        this.spec = spec;
        this.nameServer = nameServer;
        this.brokers = List.copyOf(brokers);
        this.slaves = List.copyOf(slaves);
        List<BrokerNode> all = new ArrayList<>(brokers);
        all.addAll(slaves);
        this.allBrokers = List.copyOf(all);
        this.admin = admin;
        this.stackSpec = stackSpec;
    }

    /** Chooses ports and writes every node's settings; launches nothing. */
    static Idc prepare(IdcSpec spec, StackSpec stackSpec, ChildLauncher launcher, Path idcDir) {
        int nameServerPort = PortAllocator.nameServerPort();
        String nameServerAddress = ServerNode.HOST + ":" + nameServerPort;
        ClusterAdmin admin = new ClusterAdmin(spec.clusterName(), nameServerAddress,
            stackSpec.aclEnabled() ? BrokerAcl.signer(stackSpec.aclAdmin()) : null, stackSpec.tls());

        Path nameServerDir = idcDir.resolve("namesrv");
        Properties nameServerSettings = new Properties();
        nameServerSettings.setProperty("listenPort", String.valueOf(nameServerPort));
        nameServerSettings.setProperty("bindAddress", ServerNode.HOST);
        nameServerSettings.setProperty("kvConfigPath", nameServerDir.resolve("kvConfig.json").toString());
        nameServerSettings.setProperty("configStorePath", nameServerDir.resolve("namesrv.properties").toString());
        NameServerNode nameServer = new NameServerNode(spec.name(), nameServerPort,
            launcher.prepare("name server of " + spec.name() + " (" + nameServerAddress + ")",
                spec.name() + "/namesrv", NameServerProcessMain.class, stackSpec.nameServerHeapMb(), nameServerDir,
                "rmq.namesrv.logback.xml", nameServerSettings),
            stackSpec);

        List<BrokerNode> brokers = new ArrayList<>();
        List<BrokerNode> slaves = new ArrayList<>();
        try {
            for (int i = 0; i < spec.brokers(); i++) {
                String brokerName = BrokerNode.brokerName(spec.name(), i);
                BrokerNode master = prepareBroker(spec, stackSpec, launcher, idcDir, brokerName, BrokerNode.Role.MASTER,
                    PortAllocator.brokerPort(), nameServerAddress, admin);
                brokers.add(master);
                if (spec.slaves()) {
                    BrokerNode slave = prepareBroker(spec, stackSpec, launcher, idcDir, brokerName,
                        BrokerNode.Role.SLAVE, PortAllocator.brokerPort(), nameServerAddress, admin);
                    slaves.add(slave);
                    BrokerNode.pair(master, slave);
                }
            }
        } catch (RuntimeException e) {
            brokers.forEach(BrokerNode::closeLatencyProxy);
            slaves.forEach(BrokerNode::closeLatencyProxy);
            throw e;
        }
        return new Idc(spec, nameServer, brokers, slaves, admin, stackSpec);
    }

    private static BrokerNode prepareBroker(IdcSpec spec, StackSpec stackSpec, ChildLauncher launcher, Path idcDir,
                                            String brokerName, BrokerNode.Role role, int port,
                                            String nameServerAddress, ClusterAdmin admin) {
        // A slave's directory and log names end in -s1, so its store never meets its master's.
        String nodeName = role == BrokerNode.Role.MASTER ? brokerName : brokerName + "-s" + role.brokerId();
        Path brokerDir = idcDir.resolve(nodeName);
        String bindHost = spec.latencyProxy() ? BrokerNode.PROXIED_BIND_HOST : ServerNode.HOST;
        Map<String, String> overrides = new LinkedHashMap<>(stackSpec.brokerProperties());
        if (stackSpec.aclEnabled()) {
            overrides.putAll(BrokerAcl.brokerSettings(stackSpec.aclAdmin()));
        }
        Properties settings = BrokerProperties.forBroker(spec.clusterName(), brokerName, nameServerAddress,
            bindHost, port, brokerDir.resolve("store").toString(), stackSpec.brokerProfile(), overrides);
        if (spec.slaves()) {
            settings = BrokerProperties.asPairMember(settings, role);
        }
        ChildProcess child = launcher.prepare(
            (role == BrokerNode.Role.MASTER ? "broker " : "slave ") + brokerName + " of " + spec.name() + "/"
                + spec.clusterName() + " (" + bindHost + ":" + port + ")",
            spec.name() + "/" + nodeName, BrokerProcessMain.class, stackSpec.brokerHeapMb(), brokerDir,
            "rmq.broker.logback.xml", settings);
        // Started last, so nothing before it can fail and leave its listen sockets open.
        LatencyProxy proxy = spec.latencyProxy() ? BrokerNode.startLatencyProxy(port) : null;
        return new BrokerNode(spec.name(), spec.clusterName(), brokerName, role, port, child, stackSpec, admin,
            proxy);
    }

    /** IDC name, e.g. {@code idc-a}. */
    public String name() {
        return spec.name();
    }

    /** RocketMQ cluster name of this IDC, e.g. {@code cluster-a}. */
    public String clusterName() {
        return spec.clusterName();
    }

    /** {@code 127.0.0.1:port} of this IDC's name server, for {@code setNamesrvAddr}. */
    public String nameServerAddress() {
        return nameServer.address();
    }

    public NameServerNode nameServer() {
        return nameServer;
    }

    /** The master brokers, one per broker name. */
    public List<BrokerNode> brokers() {
        return brokers;
    }

    /** The slaves, one per master when the IDC was built with {@link IdcSpec.Builder#slaves}, else none. */
    public List<BrokerNode> slaves() {
        return slaves;
    }

    /**
     * Every TCP port this IDC serves on: its name server's, and each broker's (slaves too) listen, VIP
     * (port - 2) and HA (port + 1) ports. A network partition of the IDC drops them all.
     */
    public List<Integer> ports() {
        List<Integer> ports = new ArrayList<>();
        ports.add(nameServer.port());
        allBrokers.forEach(broker -> ports.addAll(broker.ports()));
        return List.copyOf(ports);
    }

    /** The master of this IDC with that broker name, e.g. {@code idc-a-broker-0}. */
    public BrokerNode broker(String brokerName) {
        return brokers.stream().filter(b -> b.brokerName().equals(brokerName)).findFirst()
            .orElseThrow(() -> new IllegalArgumentException("no broker " + brokerName + " in " + name()));
    }

    /** The slave of the master with that broker name, e.g. {@code idc-a-broker-0}. */
    public BrokerNode slave(String brokerName) {
        return slaves.stream().filter(b -> b.brokerName().equals(brokerName)).findFirst()
            .orElseThrow(() -> new IllegalArgumentException("no slave of " + brokerName + " in " + name()
                + (spec.slaves() ? "" : ": build its IdcSpec with slaves(true)")));
    }

    /**
     * Sets the response delay of every broker of this IDC (see {@link BrokerNode#latencyProxy()}); zero makes them
     * fast again.
     *
     * @throws IllegalStateException if this IDC was not built with {@link IdcSpec.Builder#latencyProxy}
     */
    public void setBrokerDelay(Duration delay) {
        if (!spec.latencyProxy()) {
            throw new IllegalStateException("IDC " + name() + " has no latency proxy: build its IdcSpec with "
                + "latencyProxy(true)");
        }
        allBrokers.forEach(b -> b.latencyProxy().orElseThrow().setDelay(delay));
    }

    /** Kills the name server and all brokers, slaves included, at once (SIGKILL); returns when they are gone. */
    public synchronized void kill() {
        allBrokers.forEach(BrokerNode::kill);
        nameServer.kill();
    }

    /**
     * Stops gracefully: brokers first, all at once, so they can unregister from the name server, then the name
     * server. RocketMQ's graceful shutdown takes several seconds per broker.
     */
    public synchronized void stop() {
        allBrokers.forEach(b -> b.child().requestStop());
        allBrokers.forEach(BrokerNode::awaitStopped);
        nameServer.stop();
    }

    /**
     * Starts every node that is not running, all at once, and returns when each broker is listed by the name
     * server (including brokers that kept running while the name server was down). On failure the nodes launched
     * here are killed again and the exception names the node and ends with its log.
     */
    public synchronized void start() {
        Deadline deadline = Deadline.after(stackSpec.startTimeout());
        awaitStarted(launchDead(), deadline);
    }

    /** {@link #stop()} then {@link #start()}. */
    public synchronized void restart() {
        stop();
        start();
    }

    /** Launches the stopped nodes, name server first, without waiting for them. */
    synchronized List<ServerNode> launchDead() {
        List<ServerNode> launched = new ArrayList<>();
        if (nameServer.launchIfDead()) {
            launched.add(nameServer);
        }
        for (BrokerNode broker : allBrokers) {
            if (broker.launchIfDead()) {
                launched.add(broker);
            }
        }
        return launched;
    }

    synchronized void awaitStarted(List<ServerNode> launched, Deadline deadline) {
        try {
            for (ServerNode node : launched) {
                node.awaitStarted(deadline);
            }
            for (BrokerNode broker : allBrokers) {
                broker.awaitServing(deadline);
            }
        } catch (RuntimeException e) {
            launched.forEach(ServerNode::kill);
            throw e;
        }
    }

    void createTopic(String topic, int queues, Deadline deadline) {
        admin.createTopic(allBrokers, topic, queues, deadline);
    }

    /** Creates the spec's application accounts on every broker of this IDC. */
    void createAclUsers(Deadline deadline) {
        admin.createAclUsers(brokers, stackSpec.aclUsers(), deadline);
    }

    /** Messages stored in {@code topic} on this IDC's brokers since it was created (its queues' max offsets, summed). A remote call. */
    public long storedMessages(String topic) {
        return admin.storedMessages(topic);
    }

    /**
     * Moves the consumer group {@code group} back to the start of {@code topic} on this IDC's brokers, its online members
     * told at once (RocketMQ's forced offset reset): every message of the topic here is delivered to the group again,
     * committed or not. Returns the number of queues moved. A remote call.
     */
    public int rewindGroup(String topic, String group) {
        return admin.rewind(topic, group, 0);
    }

    /** Kills everything and releases the admin client and the latency proxies: the end of the stack. */
    synchronized void destroy() {
        admin.close();
        kill();
        allBrokers.forEach(BrokerNode::closeLatencyProxy);
    }

    @Override
    public String toString() {
        return "Idc[" + name() + ", cluster=" + clusterName() + ", nameServer=" + nameServerAddress()
            + ", brokers=" + brokers.stream().map(BrokerNode::address).toList()
            + (slaves.isEmpty() ? "" : ", slaves=" + slaves.stream().map(BrokerNode::address).toList())
            + (spec.latencyProxy() ? " through latency proxies" : "") + "]";
    }
}

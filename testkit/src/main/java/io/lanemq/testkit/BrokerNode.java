package io.lanemq.testkit;

/**
 * A master broker of one IDC's cluster. It serves when its IDC's name server lists it in the cluster info, so
 * starting a broker needs the name server of its IDC to be running.
 */
public final class BrokerNode extends ServerNode {

    private final String idcName;
    private final String clusterName;
    private final String brokerName;
    private final ClusterAdmin admin;

    BrokerNode(String idcName, String clusterName, String brokerName, int port, ChildProcess child, StackSpec spec,
               ClusterAdmin admin) {
        super(port, child, spec);
        this.idcName = idcName;
        this.clusterName = clusterName;
        this.brokerName = brokerName;
        this.admin = admin;
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

    @Override
    void awaitServing(Deadline deadline) {
        if (!deadline.await(() -> admin.lists(this))) {
            throw child().failure("started, but the name server of " + idcName + " did not list it in "
                + clusterName + " within " + deadline.budget().toSeconds() + " s");
        }
    }

    @Override
    public String toString() {
        return "broker " + brokerName + " of " + idcName + "/" + clusterName + " (" + address() + ")";
    }
}

package io.lanemq.testkit;

/**
 * The name server of one IDC. Brokers that stay up while it restarts re-register within about 10 s; an
 * {@link Idc#start()} waits for that, a plain {@link #start()} does not.
 */
public final class NameServerNode extends ServerNode {

    private final String idcName;

    NameServerNode(String idcName, int port, ChildProcess child, StackSpec spec) {
        super(port, child, spec);
        this.idcName = idcName;
    }

    /** The IDC this name server belongs to. */
    public String idcName() {
        return idcName;
    }

    @Override
    void awaitServing(Deadline deadline) {
        // The child prints READY after NamesrvController.start() bound its port: nothing more to wait for.
    }

    @Override
    public String toString() {
        return "name server of " + idcName + " (" + address() + ")";
    }
}

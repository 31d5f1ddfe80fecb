package io.lanemq.testkit;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One IDC of a {@link StackSpec}: a RocketMQ cluster with its own name server and {@link #brokers()} master brokers,
 * each with a slave when {@link #slaves()} is set. Immutable; every setting is validated when it is given.
 *
 * <pre>{@code
 * IdcSpec idc = IdcSpec.builder("idc-a").clusterName("cluster-a").brokers(2).build();
 * IdcSpec pair = IdcSpec.builder("idc-a").clusterName("cluster-a").slaves(true).build();
 * IdcSpec slow = IdcSpec.builder("idc-b").clusterName("cluster-b").latencyProxy(true).build();
 * }</pre>
 */
public final class IdcSpec {

    // The IDC name becomes part of directory and broker names, so it is kept to a portable alphabet.
    private static final Pattern IDC_NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,31}");
    private static final Pattern CLUSTER_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,63}");
    private static final int MAX_BROKERS = 8;

    private final String name;
    private final String clusterName;
    private final int brokers;
    private final boolean latencyProxy;
    private final boolean slaves;

    private IdcSpec(Builder builder) {
        this.name = builder.name;
        this.clusterName = Objects.requireNonNull(builder.clusterName, "clusterName must be set for IDC " + name);
        this.brokers = builder.brokers;
        this.latencyProxy = builder.latencyProxy;
        this.slaves = builder.slaves;
    }

    /** An IDC with one broker. */
    public static IdcSpec of(String name, String clusterName) {
        return builder(name).clusterName(clusterName).build();
    }

    public static Builder builder(String name) {
        return new Builder(name);
    }

    /** IDC name, e.g. {@code idc-a}: lower-case letters, digits and dashes. */
    public String name() {
        return name;
    }

    /** RocketMQ cluster name of this IDC's brokers, e.g. {@code cluster-a}. */
    public String clusterName() {
        return clusterName;
    }

    /** Number of master brokers in this IDC's cluster, slaves not counted. */
    public int brokers() {
        return brokers;
    }

    /** Whether every broker of this IDC answers through a {@link LatencyProxy}; see {@link Builder#latencyProxy}. */
    public boolean latencyProxy() {
        return latencyProxy;
    }

    /** Whether each master has a slave that replicates it synchronously; see {@link Builder#slaves}. */
    public boolean slaves() {
        return slaves;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IdcSpec other
            && name.equals(other.name) && clusterName.equals(other.clusterName) && brokers == other.brokers
            && latencyProxy == other.latencyProxy && slaves == other.slaves;
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, clusterName, brokers, latencyProxy, slaves);
    }

    @Override
    public String toString() {
        return "IdcSpec[name=" + name + ", cluster=" + clusterName + ", brokers=" + brokers
            + (slaves ? ", slaves" : "") + (latencyProxy ? ", latencyProxy" : "") + "]";
    }

    /** Builder of {@link IdcSpec}; not thread-safe. */
    public static final class Builder {
        private final String name;
        private String clusterName;
        private int brokers = 1;
        private boolean latencyProxy;
        private boolean slaves;

        private Builder(String name) {
            if (name == null || !IDC_NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("IDC name must match " + IDC_NAME + ": " + name);
            }
            this.name = name;
        }

        public Builder clusterName(String clusterName) {
            if (clusterName == null || !CLUSTER_NAME.matcher(clusterName).matches()) {
                throw new IllegalArgumentException(
                    "clusterName of IDC " + name + " must match " + CLUSTER_NAME + ": " + clusterName);
            }
            this.clusterName = clusterName;
            return this;
        }

        public Builder brokers(int brokers) {
            if (brokers < 1 || brokers > MAX_BROKERS) {
                throw new IllegalArgumentException(
                    "brokers of IDC " + name + " must be in [1, " + MAX_BROKERS + "]: " + brokers);
            }
            this.brokers = brokers;
            return this;
        }

        /**
         * Puts every broker of this IDC behind a {@link LatencyProxy} (default false), so a test can make the
         * IDC answer slowly with {@link Idc#setBrokerDelay} or {@link BrokerNode#latencyProxy()}. The broker
         * binds {@value BrokerNode#PROXIED_BIND_HOST} and still advertises {@code 127.0.0.1:port}, where the
         * proxy listens: every client request to it, admin included, goes through the proxy. The proxy lives
         * as long as the stack, across broker kills and restarts; while the broker is down it closes each
         * connection at once. Needs {@value BrokerNode#PROXIED_BIND_HOST} on the loopback interface, as on
         * Linux, where all of 127.0.0.0/8 is.
         */
        public Builder latencyProxy(boolean latencyProxy) {
            this.latencyProxy = latencyProxy;
            return this;
        }

        /**
         * Gives every master a slave (default false): RocketMQ's controller-less master/slave replication, a
         * {@link BrokerNode.Role#SLAVE} node with the master's broker name, brokerId 1, its own ports and store,
         * reached with {@link Idc#slave(String)}. The master is then a {@code SYNC_MASTER} that waits for the
         * slave's copy before it answers (5.3.3 needs {@code inSyncReplicas=2} for that: with the default 1 a
         * SYNC_MASTER answers at once), so an acknowledged send is on both and a {@code kill -9} of the master
         * leaves every acknowledged message readable on the slave ({@code slaveReadEnable}; without it a slave
         * refuses every pull). Controller-less means no promotion: while the master is down, its broker name
         * takes no sends (clients route sends to masters only) and consumers read from the slave. The testkit
         * sets role, ids and replication for these nodes over any {@link StackSpec.Builder#brokerProperty}.
         */
        public Builder slaves(boolean slaves) {
            this.slaves = slaves;
            return this;
        }

        public IdcSpec build() {
            return new IdcSpec(this);
        }
    }
}

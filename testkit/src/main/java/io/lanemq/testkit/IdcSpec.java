package io.lanemq.testkit;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One IDC of a {@link StackSpec}: a RocketMQ cluster with its own name server and {@link #brokers()} master brokers.
 * Immutable; every setting is validated when it is given.
 *
 * <pre>{@code
 * IdcSpec idc = IdcSpec.builder("idc-a").clusterName("cluster-a").brokers(2).build();
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

    private IdcSpec(Builder builder) {
        this.name = builder.name;
        this.clusterName = Objects.requireNonNull(builder.clusterName, "clusterName must be set for IDC " + name);
        this.brokers = builder.brokers;
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

    /** Number of master brokers in this IDC's cluster (no slaves). */
    public int brokers() {
        return brokers;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IdcSpec other
            && name.equals(other.name) && clusterName.equals(other.clusterName) && brokers == other.brokers;
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, clusterName, brokers);
    }

    @Override
    public String toString() {
        return "IdcSpec[name=" + name + ", cluster=" + clusterName + ", brokers=" + brokers + "]";
    }

    /** Builder of {@link IdcSpec}; not thread-safe. */
    public static final class Builder {
        private final String name;
        private String clusterName;
        private int brokers = 1;

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

        public IdcSpec build() {
            return new IdcSpec(this);
        }
    }
}

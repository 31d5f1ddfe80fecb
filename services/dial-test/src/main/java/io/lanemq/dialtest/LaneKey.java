package io.lanemq.dialtest;

import java.util.Comparator;
import java.util.Objects;

/** One row of the report and one set of metric tags: a cluster, one of its brokers, a probe kind. */
public record LaneKey(String cluster, String broker, ProbeKind kind) implements Comparable<LaneKey> {

    private static final Comparator<LaneKey> ORDER = Comparator.comparing(LaneKey::cluster)
        .thenComparing(LaneKey::broker).thenComparing(LaneKey::kind);

    public LaneKey {
        Objects.requireNonNull(cluster, "cluster");
        Objects.requireNonNull(broker, "broker");
        Objects.requireNonNull(kind, "kind");
    }

    @Override
    public int compareTo(LaneKey other) {
        return ORDER.compare(this, other);
    }

    @Override
    public String toString() {
        return cluster + "/" + broker + "/" + kind.label();
    }
}

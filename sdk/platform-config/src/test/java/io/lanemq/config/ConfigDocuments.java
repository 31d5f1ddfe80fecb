package io.lanemq.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Platform documents for the source tests: the same two clusters and one logic topic, weights varied. */
final class ConfigDocuments {
    private ConfigDocuments() {
    }

    static String weights(int a, int b) {
        return """
                clusters:
                  cluster-a: { idc: idc-a, nameServer: "127.0.0.1:9876" }
                  cluster-b: { idc: idc-b, nameServer: "127.0.0.1:9877" }
                topics:
                  order-paid:
                    routes:
                      - { cluster: cluster-a, physicalTopic: order_paid, weight: %d }
                      - { cluster: cluster-b, physicalTopic: order_paid, weight: %d }
                """.formatted(a, b);
    }

    /** Valid YAML whose second route names a cluster that does not exist: key and line 8 in the message. */
    static final String UNKNOWN_CLUSTER = weights(50, 50).replace("{ cluster: cluster-b,", "{ cluster: cluster-z,");
    static final String UNKNOWN_CLUSTER_PROBLEM = "topics.order-paid.routes[1].cluster (line 8): unknown cluster 'cluster-z'";

    static int weightOfA(PlatformConfig config) {
        return config.topic("order-paid").orElseThrow().route("cluster-a").orElseThrow().weight();
    }

    /** "p50 12 ms, max 30 ms (n=20)" */
    static String summary(List<Long> nanos) {
        List<Long> sorted = new ArrayList<>(nanos);
        Collections.sort(sorted);
        return String.format("p50 %.1f ms, max %.1f ms (n=%d)", sorted.get((sorted.size() - 1) / 2) / 1e6,
                sorted.get(sorted.size() - 1) / 1e6, sorted.size());
    }
}

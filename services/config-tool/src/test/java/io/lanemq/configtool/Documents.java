package io.lanemq.configtool;

final class Documents {
    private Documents() {
    }

    static final String VALID = """
            # order traffic, 70/30 across the IDCs
            clusters:
              cluster-a: { idc: idc-a, nameServer: "10.0.0.1:9876" }
              cluster-b: { idc: idc-b, nameServer: "10.1.0.1:9876" }
            topics:
              order-paid:
                routes:
                  - { cluster: cluster-a, physicalTopic: order_paid, weight: 70 }
                  - { cluster: cluster-b, physicalTopic: order_paid, weight: 30 }
                consumerGroups:
                  billing: { threads: 4 }
            """;

    /** Two problems, each with its key and line. */
    static final String INVALID = VALID.replace("weight: 30 }", "weight: -5 }").replace("{ cluster: cluster-a,", "{ cluster: cluster-q,");
}

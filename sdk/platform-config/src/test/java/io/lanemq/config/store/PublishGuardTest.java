package io.lanemq.config.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PublishGuardTest {
    private static String document(int a, int b, int c, boolean refunds) {
        return """
                clusters:
                  cluster-a: { idc: idc-a, nameServer: "10.0.0.1:9876" }
                  cluster-b: { idc: idc-b, nameServer: "10.1.0.1:9876" }
                  cluster-c: { idc: idc-c, nameServer: "10.2.0.1:9876" }
                topics:
                  order-paid:
                    routes:
                      - { cluster: cluster-a, physicalTopic: order_paid, weight: %d }
                      - { cluster: cluster-b, physicalTopic: order_paid, weight: %d }
                      - { cluster: cluster-c, physicalTopic: order_paid, weight: %d }
                """.formatted(a, b, c) + (refunds ? """
                  refunds:
                    routes:
                      - { cluster: cluster-a, physicalTopic: refunds, weight: 50 }
                      - { cluster: cluster-b, physicalTopic: refunds, weight: 50 }
                """ : "");
    }

    @Test
    void drainingOneIdcOrAFirstPublishPasses() throws Exception {
        assertThat(PublishGuard.refusals(document(50, 50, 0, false), document(0, 100, 0, false))).isEmpty();
        assertThat(PublishGuard.refusals(null, document(50, 50, 0, false))).isEmpty();
    }

    @Test
    void aTopicRemovedWhileItCarriedTrafficIsRefused() throws Exception {
        assertThat(PublishGuard.refusals(document(50, 50, 0, true), document(50, 50, 0, false)))
                .containsExactly("logic topic 'refunds' is removed from environment 'default': every send to it would fail");
    }

    @Test
    void drainingEveryIdcThatCarriedTrafficAtOnceIsRefused() throws Exception {
        assertThat(PublishGuard.refusals(document(50, 50, 0, false), document(0, 0, 100, false))).containsExactly(
                "every IDC that carried traffic in environment 'default' [idc-a, idc-b] is drained at once, all of it "
                        + "moving to [idc-c]: drain one IDC at a time");
    }

    @Test
    void aTopicWithNoWeightLeftIsRefusedByValidationNamingIt() {
        assertThatThrownBy(() -> PublishGuard.refusals(document(50, 50, 0, false), document(0, 0, 0, false)))
                .hasMessageContaining("weights sum to zero, so no send could be routed");
    }

    @Test
    void anEnvironmentRemovedIsRefused() throws Exception {
        String withStaging = document(50, 50, 0, false) + """
                environments:
                  staging: { physicalTopicSuffix: _staging }
                """;
        assertThat(PublishGuard.refusals(withStaging, document(50, 50, 0, false)))
                .singleElement().asString().startsWith("environment 'staging' is removed");
    }
}

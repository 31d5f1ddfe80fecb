package io.lanemq.console.change;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class IdcStateTest {
    private static final String DOCUMENT = """
            clusters:
              a: { idc: idc-a, nameServer: "127.0.0.1:9876" }
              b: { idc: idc-b, nameServer: "127.0.0.1:9877" }
            topics:
              orders:
                routes: [{ cluster: a, physicalTopic: o, weight: 5 }, { cluster: b, physicalTopic: o, weight: 0 }]
            environments:
              staging:
                physicalTopicSuffix: _stg
                topics:
                  orders:
                    routes: [{ cluster: a, physicalTopic: o_stg, weight: 5 }, { cluster: b, physicalTopic: o_stg, weight: 5 }]
            """;

    @Test
    void countsAnEnvironmentsOwnRoutesAmongTheTopicsADrainWouldMoveAndIsDrainedOnlyWhenThoseMovedToo() throws Exception {
        IdcState b = IdcState.of(Configs.routeSets(DOCUMENT, "test"), "idc-b");

        assertThat(b.wouldMove()).containsExactly("orders (staging)");
        assertThat(b.drained()).as("staging still sends to idc-b").isFalse();

        String drained = Configs.applied(new DrainIdc("idc-b"), DOCUMENT, "test");
        IdcState after = IdcState.of(Configs.routeSets(drained, "test"), "idc-b");
        assertThat(after.wouldMove()).isEqualTo(List.of());
        assertThat(after.drained()).isTrue();
        assertThat(IdcState.of(Configs.routeSets(drained, "test"), "idc-a").wouldMove()).containsExactly("orders", "orders (staging)");
    }
}

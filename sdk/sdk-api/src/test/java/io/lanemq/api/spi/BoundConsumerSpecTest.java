package io.lanemq.api.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lanemq.api.spi.BoundConsumerSpec.StartPosition;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The spec's builder: defaults for what a caller leaves out, each bad setting named at once, and a way back from a spec. */
class BoundConsumerSpecTest {
    private static final ClusterEndpoint IDC_A = new ClusterEndpoint("cluster-a", "idc-a", "127.0.0.1:9876", Map.of());

    @Test
    void whatTheCallerLeavesOutTakesTheDocumentedDefaults() {
        BoundConsumerSpec spec = BoundConsumerSpec.builder(IDC_A, "billing", "order_paid").build();

        assertThat(spec).isEqualTo(new BoundConsumerSpec(IDC_A, "billing", "order_paid", "*", false, 8, 16, StartPosition.LATEST,
                32, List.of(), java.util.Optional.empty(), List.of(), java.util.Optional.empty()));
    }

    @Test
    void aBadSettingIsRefusedWhenItIsMadeNamingIt() {
        BoundConsumerSpec.Builder builder = BoundConsumerSpec.builder(IDC_A, "billing", "order_paid");

        assertThatThrownBy(() -> builder.consumeThreads(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("consumeThreads must be >= 1, was 0");
        assertThatThrownBy(() -> builder.maxDeliveryAttempts(0)).hasMessageContaining("maxDeliveryAttempts");
        assertThatThrownBy(() -> builder.batchSize(-1)).hasMessageContaining("batchSize");
        assertThatThrownBy(() -> builder.memberTag("has space")).hasMessageContaining("memberTag");
        assertThatThrownBy(() -> builder.tagFilter(null)).hasMessage("tagFilter must not be null");
        assertThatThrownBy(() -> BoundConsumerSpec.builder(IDC_A, null, "order_paid")).hasMessage("consumerGroup must not be null");
    }

    @Test
    void toBuilderKeepsEveryComponentAndTheWithersChangeOnlyTheirOwn() {
        BoundConsumerSpec spec = BoundConsumerSpec.builder(IDC_A, "billing", "order_paid").tagFilter("paid").ordered(true)
                .consumeThreads(3).maxDeliveryAttempts(4).startPosition(StartPosition.EARLIEST).batchSize(5)
                .drainTopics(List.of("old")).memberTag("A~127.0.0.1~7000").shadowTopics(List.of("order_paid.load")).build();

        assertThat(spec.toBuilder().build()).isEqualTo(spec);
        assertThat(spec.draining(List.of())).isEqualTo(new BoundConsumerSpec(IDC_A, "billing", "order_paid", "paid", true, 3, 4,
                StartPosition.EARLIEST, 5, List.of(), spec.memberTag(), List.of("order_paid.load"), spec.retryBackoff()));
        assertThat(spec.withMemberTag("B~h~1").memberTag()).contains("B~h~1");
        assertThat(spec.withShadowTopics(List.of()).shadowTopics()).isEmpty();
    }
}

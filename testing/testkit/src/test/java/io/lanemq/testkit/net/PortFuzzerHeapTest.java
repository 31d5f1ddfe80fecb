package io.lanemq.testkit.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The fuzz tests' leak check sees a server that keeps each connection's state, and passes one that keeps nothing. */
class PortFuzzerHeapTest {
    private static final int CONNECTIONS = 700;
    private final List<byte[]> kept = new ArrayList<>();

    @Test
    void stateKeptPerConnectionIsOverTheBound() throws Exception {
        long perConnection = PortFuzzer.heapKeptPerConnection(() -> {
            for (int i = 0; i < CONNECTIONS; i++) {
                kept.add(new byte[2048]);
            }
            return CONNECTIONS;
        });

        assertThat(perConnection).isGreaterThanOrEqualTo(PortFuzzer.HEAP_KEPT_PER_CLOSED_CONNECTION);
    }

    @Test
    void stateDroppedWithTheConnectionIsUnderTheBound() throws Exception {
        long perConnection = PortFuzzer.heapKeptPerConnection(() -> {
            List<byte[]> open = new ArrayList<>();
            for (int i = 0; i < CONNECTIONS; i++) {
                open.add(new byte[2048]);
            }
            return open.size();
        });

        assertThat(perConnection).isLessThan(PortFuzzer.HEAP_KEPT_PER_CLOSED_CONNECTION);
    }
}

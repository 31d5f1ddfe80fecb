package io.lanemq.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.ThreadFactory;
import org.junit.jupiter.api.Test;

class NamedThreadsTest {
    @Test
    void namesCarryTheOwnerAndSkipMissingParts() {
        assertThat(NamedThreads.name("lanemq-producer-timers", "orders")).isEqualTo("lanemq-producer-timers-orders");
        assertThat(NamedThreads.name("lanemq-sdk-cluster-probe", "", null))
                .as("an owner that is not known adds nothing, not a dangling dash").isEqualTo("lanemq-sdk-cluster-probe");
    }

    @Test
    void numberedThreadsAreDaemonsCountedFromOne() {
        ThreadFactory threads = NamedThreads.numbered("lanemq-lane-forward-listener-checkout");
        Thread first = threads.newThread(() -> { });
        Thread second = threads.newThread(() -> { });

        assertThat(first.getName()).isEqualTo("lanemq-lane-forward-listener-checkout-1");
        assertThat(second.getName()).isEqualTo("lanemq-lane-forward-listener-checkout-2");
        assertThat(first.isDaemon()).as("a failed start must never pin the JVM").isTrue();
    }
}

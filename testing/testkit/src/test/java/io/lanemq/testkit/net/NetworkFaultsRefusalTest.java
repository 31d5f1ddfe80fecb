package io.lanemq.testkit.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lanemq.testkit.TestkitException;
import org.junit.jupiter.api.Test;

/**
 * The fault tool never touches the machine's own network: in the namespace this test runs in (the machine's,
 * with its real interfaces), opening it is refused before any rule is written, naming the way to run it.
 */
class NetworkFaultsRefusalTest {
    @Test
    void outsideAPrivateNamespaceOpeningIsRefusedNamingTheLauncher() {
        assertThat(PrivateNetwork.interfaces()).as("this test runs in the machine's namespace").contains("lo").hasSizeGreaterThan(1);
        assertThat(PrivateNetwork.isPrivate()).isFalse();

        assertThatThrownBy(NetworkFaults::open).isInstanceOf(TestkitException.class)
                .hasMessageContaining("refusing to inject network faults")
                .hasMessageContaining("bin/netns/bin/java");
    }
}

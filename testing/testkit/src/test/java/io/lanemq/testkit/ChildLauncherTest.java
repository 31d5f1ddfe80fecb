package io.lanemq.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ChildLauncherTest {

    @Test
    void extraOptionsAreSplitOnWhitespaceAndNameTheirNode() {
        assertThat(ChildLauncher.extraOptions(" -XX:StartFlightRecording=filename=/tmp/{node}.jfr \t -Dx=1 ", "idc-a/broker-a"))
                .as("each node's recording goes to its own file")
                .containsExactly("-XX:StartFlightRecording=filename=/tmp/idc-a-broker-a.jfr", "-Dx=1");
    }

    @Test
    void noPropertyAddsNothing() {
        assertThat(ChildLauncher.extraOptions("", "ns-a")).isEmpty();
        assertThat(ChildLauncher.extraOptions("   ", "ns-a")).isEmpty();
    }

    @Test
    void anOptionWithoutADashIsRefusedByName() {
        assertThatThrownBy(() -> ChildLauncher.extraOptions("-Dx=1 settings=profile", "ns-a"))
                .isInstanceOf(TestkitException.class)
                .hasMessageContaining(ChildLauncher.EXTRA_OPTIONS).hasMessageContaining("'settings=profile'");
    }
}

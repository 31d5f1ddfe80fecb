package io.lanemq.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** One watch per source, none after close, and close hands back the one to stop, once. */
class WatchSlotTest {
    private final WatchSlot<String> slot = new WatchSlot<>();

    @Test
    void aSourceIsWatchedOnceAndCloseHandsBackTheRunningWatchOnce() {
        assertThat(slot.start("file:/p.yaml", () -> "watch-1")).isEqualTo("watch-1");
        assertThatThrownBy(() -> slot.start("file:/p.yaml", () -> "watch-2")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("file:/p.yaml is already watched");

        assertThat(slot.close()).isEqualTo("watch-1");
        assertThat(slot.close()).as("closed already").isNull();
        assertThatThrownBy(() -> slot.start("file:/p.yaml", () -> "watch-3")).hasMessageContaining("file:/p.yaml is closed");
    }

    @Test
    void closingASourceThatWasNeverWatchedHasNothingToStop() {
        assertThat(slot.close()).isNull();
        assertThat(slot.running()).isNull();
    }
}

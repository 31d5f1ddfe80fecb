package io.lanemq.core.internal.lane.forward;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ForwardedMessageTest {
    @Test
    void theWireFormKeepsEveryFieldAndEveryAbsence() {
        ForwardedMessage full = ForwardFixture.fullMessage();
        ForwardedMessage bare = ForwardFixture.bareMessage();

        assertThat(LaneMessages.received(LaneMessages.request("billing", full))).isEqualTo(full);
        assertThat(LaneMessages.received(LaneMessages.request("billing", bare))).isEqualTo(bare);
        assertThat(LaneMessages.request("billing", bare).getMessage().hasTag()).isFalse();
        assertThat(LaneMessages.request("billing", full).getConsumerGroup()).isEqualTo("billing");
    }

    @Test
    void theBodyCannotBeChangedThroughTheMessage() {
        ForwardedMessage message = ForwardFixture.fullMessage();
        message.body()[0] = 99;

        assertThat(message.body()[0]).isZero();
    }

    @Test
    void toStringNamesTheMessageWithoutItsContent() {
        ForwardedMessage message = ForwardFixture.fullMessage();

        assertThat(message.toString()).contains(message.messageId(), "cluster-b", "attempt=4").doesNotContain("trace-id", "A.X");
    }
}

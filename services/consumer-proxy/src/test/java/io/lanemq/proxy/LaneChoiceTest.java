package io.lanemq.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.api.MessageContext;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The lane rule alone: which connected lane takes a message of a lane path. */
class LaneChoiceTest {
    private final LaneChoice lanes = new LaneChoice();

    @Test
    void theMostSpecificLaneOnThePathWithAConsumerTakesTheMessage() {
        lanes.join(LaneChoice.BASE);
        lanes.join("A");
        lanes.join("A.X");

        assertThat(lanes.target("A.X")).isEqualTo("A.X");
        assertThat(lanes.target("A.Y")).as("A.Y has no consumer: its parent A").isEqualTo("A");
        assertThat(lanes.target("A")).isEqualTo("A");
        assertThat(lanes.target("B.X")).as("nothing on B's path: the base").isEqualTo(LaneChoice.BASE);
        assertThat(lanes.target(LaneChoice.BASE)).isEqualTo(LaneChoice.BASE);
        assertThat(lanes.lanes()).isEqualTo(3);
    }

    @Test
    void aLaneFallsBackOnlyOnceItsLastConsumerLeft() {
        lanes.join(LaneChoice.BASE);
        lanes.join("A");
        lanes.join("A");

        lanes.leave("A");
        assertThat(lanes.target("A.X")).as("one consumer of A is still connected").isEqualTo("A");
        lanes.leave("A");
        assertThat(lanes.target("A.X")).isEqualTo(LaneChoice.BASE);
        assertThat(lanes.lanes()).isEqualTo(1);
    }

    @Test
    void withNoConsumerOnThePathNotEvenTheBaseTheMessageWaits() {
        lanes.join("A");

        assertThat(lanes.target("B")).isNull();
        assertThat(lanes.target(LaneChoice.BASE)).as("a base message never goes to a lane").isNull();
        assertThat(lanes.target("A.X")).isEqualTo("A");
    }

    @Test
    void aMessageReadsItsLaneFromItsStampAndAStampThatIsNoLanePathCountsAsTheBase() {
        assertThat(LaneChoice.laneOf(Map.of(MessageContext.LANE_PROPERTY, "A.X"))).isEqualTo("A.X");
        assertThat(LaneChoice.laneOf(Map.of())).isEqualTo(LaneChoice.BASE);
        assertThat(LaneChoice.laneOf(Map.of(MessageContext.LANE_PROPERTY, "not a lane!"))).isEqualTo(LaneChoice.BASE);
    }
}

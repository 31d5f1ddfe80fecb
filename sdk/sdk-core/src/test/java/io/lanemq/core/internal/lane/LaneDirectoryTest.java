package io.lanemq.core.internal.lane;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.api.Lane;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LaneDirectoryTest {
    private static final LaneMember BASE = new LaneMember(Optional.empty(), "10.0.0.1", 7001);
    private static final LaneMember A = new LaneMember(Optional.of(Lane.of("A")), "10.0.0.2", 7002);
    private static final LaneMember A_X = new LaneMember(Optional.of(Lane.of("A.X")), "10.0.0.3", 7003);
    private static final LaneMember B = new LaneMember(Optional.of(Lane.of("B")), "10.0.0.4", 7004);

    private final AtomicLong nanos = new AtomicLong();

    @Test
    void aTagRoundTripsAndForeignTagsAreNoMembers() {
        assertThat(LaneMember.parse(A_X.tag())).contains(A_X);
        assertThat(LaneMember.parse(BASE.tag())).contains(BASE);
        assertThat(BASE.tag()).isEqualTo("~10.0.0.1~7001");
        assertThat(LaneMember.parse("something-else")).isEmpty();
        assertThat(LaneMember.parse("A..X~10.0.0.1~7001")).isEmpty();
        assertThat(LaneMember.parse("A~10.0.0.1~notaport")).isEmpty();
        assertThat(LaneMember.parse("A~10.0.0.1~0")).isEmpty();
    }

    @Test
    void aMessageGoesToTheMostSpecificLaneWithALiveMemberThenFallsBackToTheBase() {
        LaneDirectory atBase = directory(BASE);
        atBase.update(tags(BASE, A, A_X, B));

        assertThat(atBase.route(lane("A.X"))).isEqualTo(LaneRoute.forward(lane("A.X"), List.of(A_X)));
        assertThat(atBase.route(lane("A.Y"))).isEqualTo(LaneRoute.forward(lane("A"), List.of(A)));
        assertThat(atBase.route(lane("A.X.1"))).isEqualTo(LaneRoute.forward(lane("A.X"), List.of(A_X)));
        assertThat(atBase.route(lane("C"))).isEqualTo(LaneRoute.local(Optional.empty()));
        assertThat(atBase.route(Optional.empty())).isEqualTo(LaneRoute.local(Optional.empty()));

        atBase.update(tags(BASE, A, B)); // A.X's last member left
        assertThat(atBase.route(lane("A.X"))).isEqualTo(LaneRoute.forward(lane("A"), List.of(A)));
    }

    @Test
    void anInstanceConsumesItsOwnLaneEvenBeforeTheBrokersListItAndNeverTakesTheBasesMessages() {
        LaneDirectory atA = directory(A);

        assertThat(atA.route(lane("A.X"))).isEqualTo(LaneRoute.local(lane("A")));
        assertThat(atA.route(Optional.empty())).as("base message, no base member known")
                .isEqualTo(LaneRoute.unroutable(List.of(Optional.empty())));
        assertThat(atA.route(lane("B.Z")).tried()).containsExactly(lane("B.Z"), lane("B"), Optional.empty());

        atA.update(tags(BASE, A_X));
        assertThat(atA.route(Optional.empty())).isEqualTo(LaneRoute.forward(Optional.empty(), List.of(BASE)));
        assertThat(atA.route(lane("A.X"))).isEqualTo(LaneRoute.forward(lane("A.X"), List.of(A_X)));
    }

    @Test
    void aSuspectMemberIsLeftOutForAWhile() {
        LaneMember otherAX = new LaneMember(Optional.of(Lane.of("A.X")), "10.0.0.9", 7009);
        LaneDirectory atBase = directory(BASE);
        atBase.update(tags(A, A_X, otherAX));

        atBase.suspect(A_X);
        assertThat(atBase.route(lane("A.X")).members()).containsExactly(otherAX);
        atBase.suspect(otherAX);
        assertThat(atBase.route(lane("A.X"))).as("no fallback to A because A.X's members failed")
                .isEqualTo(LaneRoute.unreachable(lane("A.X")));

        nanos.addAndGet(TimeUnit.SECONDS.toNanos(5));
        assertThat(atBase.route(lane("A.X")).members()).containsExactlyInAnyOrder(A_X, otherAX);
    }

    @Test
    void aSuspectThatLeftTheBrokersListIsForgottenSoItsEndpointListedAgainIsANewMember() {
        LaneDirectory atBase = directory(BASE);
        atBase.update(tags(A));
        atBase.suspect(A); // killed: the forward failed
        assertThat(atBase.route(lane("A"))).isEqualTo(LaneRoute.unreachable(lane("A")));

        atBase.update(tags()); // the brokers dropped it: its connection closed
        assertThat(atBase.route(lane("A"))).isEqualTo(LaneRoute.local(Optional.empty()));
        atBase.update(tags(A)); // restarted on the same endpoint, well within the suspicion period
        assertThat(atBase.route(lane("A"))).isEqualTo(LaneRoute.forward(lane("A"), List.of(A)));
    }

    @Test
    void aSuspectStillListedStaysSuspectAcrossUpdates() {
        LaneDirectory atBase = directory(BASE);
        atBase.update(tags(A));
        atBase.suspect(A);

        atBase.update(tags(A));
        assertThat(atBase.route(lane("A"))).isEqualTo(LaneRoute.unreachable(lane("A")));
    }

    private LaneDirectory directory(LaneMember self) {
        return new LaneDirectory(self, TimeUnit.SECONDS.toNanos(5), nanos::get);
    }

    private static List<String> tags(LaneMember... members) {
        return java.util.Arrays.stream(members).map(LaneMember::tag).toList();
    }

    private static Optional<Lane> lane(String path) {
        return Optional.of(Lane.of(path));
    }
}

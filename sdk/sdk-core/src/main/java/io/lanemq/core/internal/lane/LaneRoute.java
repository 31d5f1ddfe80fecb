package io.lanemq.core.internal.lane;

import io.lanemq.api.Lane;
import java.util.List;
import java.util.Optional;

/**
 * Where one message is consumed: here, by the members of another lane, or nowhere now: no lane on the
 * message's fallback path has a live member (UNROUTABLE), or the lane that should take it has members
 * but each failed a forward lately (UNREACHABLE); either way the message is retried later.
 *
 * @param lane    the lane that consumes it, or should (empty: the base); for an unroutable message, the lane it was sent in
 * @param members for FORWARD, the live members of that lane to forward to; otherwise empty
 * @param tried   for UNROUTABLE, the fallback path that was tried, most specific first
 */
record LaneRoute(Kind kind, Optional<Lane> lane, List<LaneMember> members, List<Optional<Lane>> tried) {
    enum Kind { LOCAL, FORWARD, UNREACHABLE, UNROUTABLE }

    static LaneRoute local(Optional<Lane> lane) {
        return new LaneRoute(Kind.LOCAL, lane, List.of(), List.of());
    }

    static LaneRoute forward(Optional<Lane> lane, List<LaneMember> members) {
        return new LaneRoute(Kind.FORWARD, lane, List.copyOf(members), List.of());
    }

    static LaneRoute unreachable(Optional<Lane> lane) {
        return new LaneRoute(Kind.UNREACHABLE, lane, List.of(), List.of());
    }

    static LaneRoute unroutable(List<Optional<Lane>> tried) {
        return new LaneRoute(Kind.UNROUTABLE, tried.get(0), List.of(), List.copyOf(tried));
    }
}

package io.lanemq.core.internal.consume;

import io.lanemq.api.Lane;
import io.lanemq.api.MessageListener;
import java.util.Objects;
import java.util.Optional;

/**
 * A subscription's part in lanes, for both modes. In DIRECT mode the consumers join the group with
 * {@code memberTag} and run the lane-routing listener, which forwards other lanes' messages; in PROXY mode
 * the consumer tells the proxy {@code lane} and runs {@code local}, the application's own listener, since
 * the proxy pushes it only what its lane should consume and there is nothing to forward.
 *
 * @param memberTag what DIRECT consumers tell the other members of the group (lane and endpoint)
 * @param lane      this instance's lane; empty: the base
 * @param local     the application's listener, without lane routing
 */
public record LaneMembership(String memberTag, Optional<Lane> lane, MessageListener local) {
    public LaneMembership {
        Objects.requireNonNull(memberTag, "memberTag");
        Objects.requireNonNull(lane, "lane");
        Objects.requireNonNull(local, "local");
    }

    /** The lane as the proxy's Subscribe names it: its path, or "" for the base. */
    String proxyLane() {
        return lane.map(Lane::path).orElse("");
    }
}

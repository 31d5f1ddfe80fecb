package io.lanemq.core.internal.lane;

import io.lanemq.api.Lane;
import io.lanemq.support.Ticker;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Which lanes of one consumer group have live members, and where a message of a lane is consumed: by
 * the members of the most specific lane on its fallback path ({@code A.X}, {@code A}, then the base)
 * that has any. This instance counts as a live member of its own lane from the start.
 *
 * <p>The view comes from {@link #update}, the member tags the brokers list. A member that failed a
 * forward is left out for a while ({@link #suspect}), so the next message goes to its peers. A lane
 * whose members all failed lately is not fallen back from: its messages wait (are retried later)
 * rather than reach a less specific lane because of a slow or busy member; only the brokers' list, which
 * drops a member whose connection closed, makes a lane go away. Thread-safe: updates replace the view whole.
 */
final class LaneDirectory {
    private final LaneMember self;
    private final long suspectNanos;
    private final Ticker ticker;
    private volatile Map<Optional<Lane>, List<LaneMember>> membersByLane;
    private final Map<LaneMember, Long> suspectUntil = new ConcurrentHashMap<>();
    /** Open once the brokers' list was read: until then this instance knows only itself. */
    private final CountDownLatch read = new CountDownLatch(1);

    LaneDirectory(LaneMember self, long suspectNanos, Ticker ticker) {
        this.self = self;
        this.suspectNanos = suspectNanos;
        this.ticker = ticker;
        this.membersByLane = Map.of(self.lane(), List.of(self));
    }

    /**
     * Replaces the view with the members these tags stand for (tags of other kinds are ignored), and forgets that a
     * member no longer listed failed: the brokers drop a member whose connection closed.
     */
    void update(Collection<String> tags) {
        Map<Optional<Lane>, List<LaneMember>> view = new HashMap<>();
        view.computeIfAbsent(self.lane(), lane -> new ArrayList<>()).add(self);
        for (String tag : tags) {
            LaneMember.parse(tag).filter(member -> !member.equals(self))
                    .ifPresent(member -> view.computeIfAbsent(member.lane(), lane -> new ArrayList<>()).add(member));
        }
        Map<Optional<Lane>, List<LaneMember>> frozen = new LinkedHashMap<>();
        view.forEach((lane, members) -> frozen.put(lane, List.copyOf(members)));
        membersByLane = frozen;
        // A member the brokers no longer list has gone (its connection closed): if the same endpoint is listed again,
        // it is a new process, not the one that failed; and dead members must not pile up here as deployments churn.
        Set<LaneMember> listed = new HashSet<>();
        frozen.values().forEach(listed::addAll);
        suspectUntil.keySet().retainAll(listed);
        read.countDown();
    }

    /**
     * Waits until the brokers' list was read once, at most {@code timeoutNanos}; whether it was. Before the first
     * read this instance would place every message as if it were the group's only member, and take messages of
     * other lanes that already have consumers.
     */
    boolean awaitFirstRead(long timeoutNanos) {
        try {
            return read.await(timeoutNanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Leaves {@code member} out of routing for a while: a forward to it just failed. */
    void suspect(LaneMember member) {
        suspectUntil.put(member, ticker.read() + suspectNanos);
    }

    /** Where a message of {@code lane} (empty: the base) is consumed, as the view stands now. */
    LaneRoute route(Optional<Lane> lane) {
        List<Optional<Lane>> path = new ArrayList<>();
        lane.ifPresent(l -> l.fallbackPath().forEach(step -> path.add(Optional.of(step))));
        path.add(Optional.empty());
        Map<Optional<Lane>, List<LaneMember>> view = membersByLane;
        long now = ticker.read();
        for (Optional<Lane> step : path) {
            if (step.equals(self.lane())) {
                return LaneRoute.local(step);
            }
            List<LaneMember> members = view.getOrDefault(step, List.of());
            if (!members.isEmpty()) {
                List<LaneMember> reachable = members.stream().filter(m -> !isSuspect(m, now)).toList();
                return reachable.isEmpty() ? LaneRoute.unreachable(step) : LaneRoute.forward(step, reachable);
            }
        }
        return LaneRoute.unroutable(path);
    }

    private boolean isSuspect(LaneMember member, long now) {
        Long until = suspectUntil.get(member);
        if (until == null) {
            return false;
        }
        if (now - until >= 0) {
            suspectUntil.remove(member, until);
            return false;
        }
        return true;
    }

    /** Every lane with live members, for logs and tests. */
    Map<Optional<Lane>, List<LaneMember>> view() {
        return membersByLane;
    }
}

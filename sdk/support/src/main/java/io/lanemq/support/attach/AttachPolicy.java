package io.lanemq.support.attach;

import io.lanemq.support.Backoff;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How a subscription attaches to its clusters: how long its start waits for them, how soon a cluster that did not
 * answer is tried again (soon and jittered: it may be back any moment, and many clients lost it at once), how slowly
 * one that refused is (ACL refused, topic absent: waiting alone will not cure it), and how many attempts one client
 * makes per second at most, over all its subscriptions.
 *
 * @param startWait            how long a subscription's start waits for its clusters before it returns with those
 *                             attached and leaves the others to the background
 * @param unreachable          delays after a cluster that did not answer or could not be connected to
 * @param refused              delays after a cluster that answered with an error waiting will not cure
 * @param attemptsPerSecond    the client's attach attempts per second at most, all subscriptions and clusters together
 * @param requireClusterWithin when set, a subscription that attached to no cluster by then fails its start
 */
public record AttachPolicy(Duration startWait, Backoff unreachable, Backoff refused, int attemptsPerSecond,
                           Optional<Duration> requireClusterWithin) {
    /**
     * A cluster back from an outage is consumed within 5 s: a retry is due 2 s after the last at most, and a connect
     * attempt in flight at the heal succeeds with its SYN's first retransmission (1 s), inside its 3 s timeout.
     */
    public static final AttachPolicy DEFAULT = new AttachPolicy(Duration.ofSeconds(1),
            new Backoff(Duration.ofMillis(250), Duration.ofSeconds(2), Math::random),
            new Backoff(Duration.ofSeconds(10), Duration.ofMinutes(1), Math::random), 20, Optional.empty());

    /**
     * For attempts that fail within a second while their cluster is silent (a reader asks the name server for its route
     * first, with a 500 ms connect): retried after 1 s at most, so a cluster that comes back is attached within the
     * failing attempt in flight (0.5 s), the back-off (1 s) and the attach itself, well inside 5 s; still jittered and
     * within the process's attempts per second.
     */
    public static final AttachPolicy QUICKLY_FAILING = new AttachPolicy(DEFAULT.startWait(),
            new Backoff(Duration.ofMillis(250), Duration.ofSeconds(1), Math::random), DEFAULT.refused(),
            DEFAULT.attemptsPerSecond(), Optional.empty());

    public AttachPolicy {
        Objects.requireNonNull(startWait, "startWait");
        Objects.requireNonNull(unreachable, "unreachable");
        Objects.requireNonNull(refused, "refused");
        Objects.requireNonNull(requireClusterWithin, "requireClusterWithin");
        if (attemptsPerSecond < 1) {
            throw new IllegalArgumentException("attemptsPerSecond must be at least 1, was " + attemptsPerSecond);
        }
    }

    /** This policy, failing a subscription's start that attached to no cluster within {@code within}. */
    public AttachPolicy requiringClusterWithin(Optional<Duration> within) {
        return new AttachPolicy(startWait, unreachable, refused, attemptsPerSecond, within);
    }
}

package io.lanemq.api;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a {@link MessagingClient} knows of its own health at one moment, from what it already keeps (nothing is asked
 * of a broker to build it): the state of its configuration source, and for each cluster of the configuration in force
 * whether the client's own sends judge it up. Immutable; returned by {@link MessagingClient#health()}.
 *
 * <p>It holds names, states, times and reasons, and the configuration's location as the client logs it: no cluster
 * address, credential reference or secret, so it may be shown on a health endpoint as it is.
 *
 * <pre>{@code
 * ClientHealth health = client.health();
 * health.configuration().lastRejection().ifPresent(rejected ->
 *         log.warn("running on the configuration of {}: {}", health.configuration().lastApplied(), rejected.reason()));
 * boolean sending = health.clusters().stream().anyMatch(cluster -> cluster.state() == ClientHealth.ClusterState.UP);
 * }</pre>
 *
 * @param configuration the configuration source: where it is, when a configuration last took effect, the last rejection
 * @param clusters      every cluster of the configuration in force, by name
 */
public record ClientHealth(Configuration configuration, List<Cluster> clusters) {

    public ClientHealth {
        Objects.requireNonNull(configuration, "configuration");
        clusters = List.copyOf(clusters);
    }

    /** The cluster named {@code name}, when the configuration in force has it. */
    public Optional<Cluster> cluster(String name) {
        return clusters.stream().filter(cluster -> cluster.name().equals(name)).findFirst();
    }

    /**
     * The configuration source's state. A rejected change leaves the client running on the configuration that took
     * effect at {@code lastApplied}; the rejection stays until a later change takes effect.
     *
     * @param location      the source as the client names it in messages ({@code file:/etc/lanemq/platform.yaml},
     *                      {@code etcd://host:2379/key}): never a password
     * @param lastApplied   when the configuration in force took effect: read at start, or applied by the last change
     *                      that took effect
     * @param lastRejection the last change the client refused (unreadable, invalid, or in conflict with what runs),
     *                      while no later change has taken effect; empty otherwise
     * @param connected     whether a change published now would reach the client: always true for a file; for a
     *                      config centre (etcd), false while the client's stream to it is down (it reconnects by itself)
     * @param stale         present while the client runs on its local snapshot of the configuration because the config
     *                      centre was unreachable when it started: since when, and which revision; empty once the
     *                      centre's current document took effect
     */
    public record Configuration(String location, Instant lastApplied, Optional<Rejection> lastRejection, boolean connected,
                                Optional<Stale> stale) {
        public Configuration {
            Objects.requireNonNull(location, "location");
            Objects.requireNonNull(lastApplied, "lastApplied");
            Objects.requireNonNull(lastRejection, "lastRejection");
            Objects.requireNonNull(stale, "stale");
        }

        /** A configuration read from its source, not from a snapshot. */
        public Configuration(String location, Instant lastApplied, Optional<Rejection> lastRejection, boolean connected) {
            this(location, lastApplied, lastRejection, connected, Optional.empty());
        }

        /**
         * True when the source is reachable, the client runs on its current document (not a snapshot) and its last
         * change was not rejected: the client runs on what it holds now.
         */
        public boolean healthy() {
            return connected && lastRejection.isEmpty() && stale.isEmpty();
        }
    }

    /**
     * The client runs on the local snapshot of the last configuration applied from its source, which it could not reach
     * at start; it keeps trying and applies the source's current document as soon as the source answers.
     *
     * @param since    when the snapshot was written: the last moment its document is known to have been current
     * @param revision the source's revision of that document (etcd's revision of the key)
     */
    public record Stale(Instant since, long revision) {
        public Stale {
            Objects.requireNonNull(since, "since");
        }

        @Override
        public String toString() {
            return "stale since " + since + ", revision " + revision;
        }
    }

    /**
     * A refused configuration change.
     *
     * @param reason why, as the client logged it: the source, the key and line, or the conflict with what runs
     * @param at     when it was refused
     */
    public record Rejection(String reason, Instant at) {
        public Rejection {
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(at, "at");
        }
    }

    /**
     * One cluster of the configuration in force.
     *
     * @param name   the cluster's name in the configuration
     * @param idc    the data centre it is in
     * @param state  what the client's sends judge it to be
     * @param reason why it is {@link ClusterState#DOWN} or {@link ClusterState#UNKNOWN}; empty when it is up
     */
    public record Cluster(String name, String idc, ClusterState state, Optional<String> reason) {
        public Cluster {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(idc, "idc");
            Objects.requireNonNull(state, "state");
            Objects.requireNonNull(reason, "reason");
        }
    }

    /**
     * A cluster's state as the client's routing judges it. The judge is the failover that picks a cluster for each
     * send, from the outcomes of this client's own sends; and a DIRECT consumer that could not attach to a cluster
     * (down, silent or refusing when the subscription started or changed) makes it DOWN until it attaches.
     */
    public enum ClusterState {
        /**
         * Sends of this client have gone to it, and the failover keeps it in rotation on every logic topic sent on; or no
         * send has been judged there yet and a consumer of this client is attached to it (and none failed to attach).
         */
        UP,
        /**
         * A consumer of this client is not attached to it (the reason names the consumer group, since when and why; it
         * is retried in the background), or it is out of rotation on at least one logic topic: its sends there failed or went unanswered until the failover
         * stopped picking it, and no probe since (a connection to one of its name servers, about every second) has
         * brought it back. Sends go to the other clusters of each topic.
         */
        DOWN,
        /**
         * Not judged: no send of this client has gone to it yet and no consumer of it is attached there (no send since
         * start, or a cluster no logic topic routes to). Nothing says it is unreachable.
         */
        UNKNOWN
    }
}

package io.lanemq.proxy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Which connected consumer of a group gets the next delivery.
 *
 * <p>A turn goes to the consumer with a credit that has been served least (ties round-robin); a
 * consumer without credits is skipped. Plain round-robin among those with credits would let round
 * trips decide the shares: when the consumers hold most of their credits, whoever acks sooner has
 * credits more often and is served more, and on a busy host a few fast ones took nearly twice the
 * share of the rest. Serving the least-served first hands each fetch to those behind, and costs no
 * throughput, since a consumer still gets nothing beyond its credits. A newcomer starts level with the
 * least-served, and nobody counts more than {@link #CATCH_UP} behind the most-served, so neither a new
 * consumer nor one that was slow for long takes every turn while it catches up. A turn is a run of up
 * to {@link DispatchPolicy#run()} messages, so a consumer's share of a decision can travel in one
 * frame. A run may go on into the next decision: were turns cut at each decision, consumers would take
 * turns by decisions, not by messages, and two fetchers whose decisions alternate (one per cluster)
 * would give the even consumers one cluster's batches and the odd ones the other's.
 *
 * <p>Not thread-safe: used under the owning {@link GroupDispatcher}'s lock.
 */
final class FairTurns {
    /** How far behind the most-served consumer the least-served may count; see the class comment. */
    static final long CATCH_UP = 256;

    private final int run;
    private final List<ConsumerSession> sessions = new ArrayList<>();
    private int cursor;
    /** The consumer whose run is going on, and how many deliveries its run has left. */
    private ConsumerSession turn;
    private int turnLeft;

    FairTurns(int run) {
        this.run = run;
    }

    void join(ConsumerSession session) {
        session.served = sessions.stream().mapToLong(s -> s.served).min().orElse(0);
        sessions.add(session);
    }

    void leave(ConsumerSession session) {
        int index = sessions.indexOf(session);
        sessions.remove(index);
        if (index < cursor) {
            cursor--;
        }
        if (cursor >= sessions.size()) {
            cursor = 0;
        }
    }

    /** The connected consumers, in join order; a view, not a copy. */
    List<ConsumerSession> sessions() {
        return Collections.unmodifiableList(sessions);
    }

    boolean isEmpty() {
        return sessions.isEmpty();
    }

    int size() {
        return sessions.size();
    }

    /**
     * The consumer for the next unordered message: the current run's, or the next turn's; null when
     * nobody has credits.
     */
    ConsumerSession next() {
        return next(null);
    }

    /**
     * The consumer of {@code lane} for the next unordered message (null lane: any consumer): the current
     * run's if it is of that lane, or the next turn among the lane's consumers; null when none has credits.
     */
    ConsumerSession next(String lane) {
        if (turn != null && turnLeft > 0 && turn.connected && turn.credits > 0 && of(turn, lane)) {
            turnLeft--;
            return turn;
        }
        return nextTurn(run, lane);
    }

    /**
     * The consumer to bind a new sharding key to: a turn of one, so keys spread over the consumers one
     * by one (a run would bind up to a run's worth of keys, for good, to one consumer).
     */
    ConsumerSession nextForNewKey() {
        return nextForNewKey(null);
    }

    /** {@link #nextForNewKey()} among the consumers of {@code lane} (null: any). */
    ConsumerSession nextForNewKey(String lane) {
        return nextTurn(1, lane);
    }

    private static boolean of(ConsumerSession session, String lane) {
        return lane == null || lane.equals(session.lane());
    }

    /** Counts a delivery to {@code session}. */
    void served(ConsumerSession session) {
        session.served++;
    }

    /**
     * The least-served consumer with a credit (ties: the first round-robin from the cursor); its turn is
     * a run of {@code length}. Among the consumers of {@code lane} only (null: all); the served counts are
     * compared over those, so each lane's consumers share its messages as the consumers of a group without
     * lanes share all of them.
     */
    private ConsumerSession nextTurn(int length, String lane) {
        int n = sessions.size();
        long mostServed = Long.MIN_VALUE;
        for (ConsumerSession session : sessions) {
            mostServed = Math.max(mostServed, session.served);
        }
        ConsumerSession chosen = null;
        int chosenAt = -1;
        for (int i = 0; i < n; i++) {
            int at = (cursor + i) % n;
            ConsumerSession session = sessions.get(at);
            session.served = Math.max(session.served, mostServed - CATCH_UP);
            if (session.credits > 0 && of(session, lane) && (chosen == null || session.served < chosen.served)) {
                chosen = session;
                chosenAt = at;
            }
        }
        if (chosen != null) {
            cursor = (chosenAt + 1) % n;
            turn = chosen;
            turnLeft = length - 1;
        }
        return chosen;
    }
}

package io.lanemq.localstack;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;

/**
 * Every send started by a load generator, recorded when it starts, so that a window counts the sends still in
 * flight or stuck as well as the completed ones. A rate over completed sends only would call a window in which
 * every caller was blocked a success.
 */
public final class SendLog {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    private final LongSupplier nanoClock;
    private final long origin;
    private final ConcurrentLinkedQueue<Send> sends = new ConcurrentLinkedQueue<>();

    public SendLog() {
        this(System::nanoTime);
    }

    SendLog(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
        this.origin = nanoClock.getAsLong();
    }

    /** Nanos since this log began: the time base of every outcome. */
    public long nowNanos() {
        return nanoClock.getAsLong() - origin;
    }

    /** Records a send that starts now; complete it with {@link Send#acknowledged} or {@link Send#failed}. */
    public Send started() {
        Send send = new Send(nowNanos());
        sends.add(send);
        return send;
    }

    /** Outcomes of the sends started in [fromNanos, toNanos), in flight ones included. */
    public List<SendOutcome> startedBetween(long fromNanos, long toNanos) {
        return sends.stream().filter(s -> s.start >= fromNanos && s.start < toNanos).map(Send::outcome)
                .collect(Collectors.toList());
    }

    public List<SendOutcome> all() {
        return sends.stream().map(Send::outcome).collect(Collectors.toList());
    }

    /** True once every send started so far has an outcome. */
    public boolean settled() {
        return sends.stream().noneMatch(s -> s.outcome().inFlight());
    }

    /** Message ids of every acknowledged send. */
    public Set<String> acknowledgedIds() {
        return sends.stream().map(Send::outcome).filter(SendOutcome::acknowledged).map(SendOutcome::messageId)
                .collect(Collectors.toSet());
    }

    /** The longest any send took or has been in flight so far, in milliseconds. */
    public long longestMillis() {
        long now = nowNanos();
        return sends.stream().mapToLong(s -> s.outcome().elapsedNanos(now)).max().orElse(0) / 1_000_000;
    }

    /**
     * Sends acknowledged in each whole second from {@code fromNanos} (inclusive) to {@code toNanos}, counted in the
     * second of their acknowledgement: a rate of sends started would count a failure, or a call still blocked, as
     * much as a stored message.
     */
    public long[] acknowledgedPerSecond(long fromNanos, long toNanos) {
        int seconds = (int) Math.max(0, (toNanos - fromNanos) / SECOND);
        long[] counts = new long[seconds];
        for (Send send : sends) {
            SendOutcome outcome = send.outcome();
            long offset = outcome.endNanos() - fromNanos;
            if (outcome.acknowledged() && offset >= 0 && offset / SECOND < seconds) {
                counts[(int) (offset / SECOND)]++;
            }
        }
        return counts;
    }

    /**
     * Acknowledged sends over every send started: those failed or still in flight count against it. A window
     * in which no send started is a failure (0), not a success.
     */
    public static double successRate(List<SendOutcome> outcomes) {
        return outcomes.isEmpty() ? 0 : outcomes.stream().filter(SendOutcome::acknowledged).count() / (double) outcomes.size();
    }

    /** Share of the acknowledged sends that landed on {@code cluster}; 0 when none was acknowledged. */
    public static double shareOf(List<SendOutcome> outcomes, String cluster) {
        List<SendOutcome> acked = outcomes.stream().filter(SendOutcome::acknowledged).toList();
        return acked.isEmpty() ? 0 : acked.stream().filter(o -> cluster.equals(o.cluster())).count() / (double) acked.size();
    }

    /** One send; its fields are written once by whoever completes it and read by any thread. */
    public final class Send {
        private final long start;
        private volatile SendOutcome outcome;

        private Send(long start) {
            this.start = start;
            this.outcome = new SendOutcome(start, -1, null, null, SendOutcome.State.IN_FLIGHT);
        }

        public void acknowledged(String cluster, String messageId) {
            outcome = new SendOutcome(start, nowNanos(), cluster, messageId, SendOutcome.State.ACKNOWLEDGED);
        }

        public void failed() {
            outcome = new SendOutcome(start, nowNanos(), null, null, SendOutcome.State.FAILED);
        }

        SendOutcome outcome() {
            return outcome;
        }
    }
}

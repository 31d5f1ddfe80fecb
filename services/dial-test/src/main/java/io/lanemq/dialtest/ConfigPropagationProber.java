package io.lanemq.dialtest;

import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.PlatformConfigRef;
import io.lanemq.support.LogThrottle;
import io.lanemq.support.NamedThreads;
import io.lanemq.support.Ticker;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link ProbeKind#CONFIG_PROPAGATION} probe: once per reconciliation period it publishes a new rate limit on the
 * probe key (a logic topic nothing sends to, so the change is harmless) and waits until the dial test's own client runs
 * on a configuration carrying it. A probe is tracked by the {@link Reconciler} like any other: sent when published, a
 * send failure when the publish failed, acked when the client applied it (latency: from the publish to the moment the
 * client says the change took effect, {@code ClientHealth.Configuration.lastApplied}), lost when not applied within the
 * grace. Its row is cluster {@value #CLUSTER}, broker the publisher's source.
 *
 * <p>The client's configuration in force is polled every {@value #POLL_MILLIS} ms (the client offers no callback); the
 * latency itself comes from the client's own time of applying, not from the poll. One probe at a time: the next is
 * published a period after the previous one, once that one was applied or its deadline passed. Thread
 * {@code lanemq-dialtest-config-probe}, stopped by {@link #stopProbing()}.
 */
final class ConfigPropagationProber {

    private static final Logger LOG = LoggerFactory.getLogger(ConfigPropagationProber.class);
    /** The cluster column of the probe's row: no cluster is involved. */
    static final String CLUSTER = "config";
    static final long POLL_MILLIS = 5;
    private static final int MARKER_BASE = 1_000_000;

    private final String key;
    private final ConfigPublisher publisher;
    private final Supplier<PlatformConfigRef> configInForce;
    private final Supplier<Instant> lastApplied;
    private final Reconciler reconciler;
    private final AtomicLong sequences;
    private final Ticker ticker;
    private final InstantSource wallClock;
    private final Duration period;
    private final Duration grace;
    private final LaneStats lane;
    private final LogThrottle failures;
    private final Thread thread;
    private volatile boolean running;

    /**
     * @param configInForce the client's configuration reference
     * @param lastApplied   when the client's configuration in force took effect
     */
    ConfigPropagationProber(String key, ConfigPublisher publisher, Supplier<PlatformConfigRef> configInForce,
                            Supplier<Instant> lastApplied, Reconciler reconciler, AtomicLong sequences, Duration period,
                            Duration grace, Ticker ticker, InstantSource wallClock) {
        this.key = key;
        this.publisher = publisher;
        this.configInForce = configInForce;
        this.lastApplied = lastApplied;
        this.reconciler = reconciler;
        this.sequences = sequences;
        this.period = period;
        this.grace = grace;
        this.ticker = ticker;
        this.wallClock = wallClock;
        this.lane = reconciler.lane(new LaneKey(CLUSTER, publisher.source(), ProbeKind.CONFIG_PROPAGATION));
        this.failures = LogThrottle.every(Duration.ofSeconds(60), ticker);
        this.thread = NamedThreads.daemon("lanemq-dialtest-config-probe", this::loop);
    }

    void startProbing() {
        running = true;
        thread.start();
    }

    void stopProbing() {
        running = false;
        if (thread.isAlive()) {
            LockSupport.unpark(thread);
            try {
                thread.join(grace.plusSeconds(1).toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void loop() {
        while (running) {
            long started = ticker.read();
            probeOnce();
            parkUntil(started + period.toNanos()); // the probe rate: one change per period
        }
    }

    /** Publishes one change and waits until the client applied it or its deadline passed. */
    void probeOnce() {
        long sequence = sequences.incrementAndGet();
        int marker = MARKER_BASE + (int) (sequence % MARKER_BASE);
        long publishNanos = ticker.read();
        Instant publishedAt = wallClock.instant();
        reconciler.track(sequence, lane, publishNanos, 0, 0);
        try {
            publisher.publish(key, marker);
        } catch (Exception e) {
            reconciler.sendFailed(lane, sequence, true, true);
            failures.warn(LOG, "publish", "publishing the configuration probe on {} failed: {}", key, e.toString());
            return;
        }
        reconciler.sent(lane);
        // Waited out even while stopping (within the grace), so a stop never leaves a published change unjudged.
        long deadline = publishNanos + grace.toNanos();
        while (ticker.read() - deadline < 0) {
            if (applied(marker)) {
                long latency = Math.max(0, Duration.between(publishedAt, lastApplied.get()).toNanos());
                reconciler.onAck(new AckFrame(reconciler.runId(), sequence, ProbeKind.CONFIG_PROPAGATION,
                    wallClock.millis(), 0), publishNanos + latency);
                return;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(POLL_MILLIS)); // polling the client, which has no callback
        }
    }

    private boolean applied(int marker) {
        return configInForce.get().current().topic(key).map(LogicTopicConfig::rateLimitPerSecond)
            .filter(limit -> limit == marker).isPresent();
    }

    private void parkUntil(long nanos) {
        for (long wait = nanos - ticker.read(); running && wait > 0; wait = nanos - ticker.read()) {
            LockSupport.parkNanos(wait); // pacing, not waiting for an outcome
        }
    }
}

package io.lanemq.config;

import java.time.Duration;

/**
 * Settings every producer of the client follows.
 *
 * @param sendTimeout   how long a send may take in all, its attempts on every cluster together
 * @param maxBodyBytes  the largest body accepted
 * @param retries       how many other clusters a failed send may be retried on (0: none)
 * @param failoverAfter how long an attempt may go unanswered while another cluster is left to try: then it
 *                      counts as a failure of its cluster and the send goes on to the next one, whose answer
 *                      wins if it comes first. A data centre that fails silently answers nothing and refuses
 *                      nothing; without this bound every caller that picked it would wait the whole timeout.
 * @param batch         how concurrent sends are gathered into batch requests, unless a topic says otherwise
 * @param maxHeldBytes  the most bytes (bodies) one producer holds in sends not yet answered, gathered or in
 *                      flight; a send beyond it waits for room up to the send timeout, then fails naming the limit
 */
public record ProducerConfig(Duration sendTimeout, int maxBodyBytes, int retries, Duration failoverAfter,
                             BatchConfig batch, long maxHeldBytes) {
    /**
     * 1 s: far above a healthy send here (p99 3 ms on loopback, tens of ms on a loaded 2-core host or across
     * IDCs), so a busy cluster is not abandoned, and short enough that a silent partition costs each caller
     * about a second once, before the failover marks the cluster down.
     */
    public static final Duration DEFAULT_FAILOVER_AFTER = Duration.ofSeconds(1);
    /** 64 MiB: 16 of the largest messages, or over 200,000 of 300 bytes, waiting at once. */
    public static final long DEFAULT_MAX_HELD_BYTES = 64L * 1024 * 1024;
    /**
     * The most {@code maxBodyBytes} may be set to: 64 MiB. A component that must accept whatever the setting may
     * become (a consumer's channel, across a reload) sizes itself on this.
     */
    public static final int MAX_BODY_BYTES_LIMIT = 64 * 1024 * 1024;
    public static final ProducerConfig DEFAULTS = new ProducerConfig(Duration.ofSeconds(3), 4 * 1024 * 1024);

    /** With the default gathering and held-bytes limit. */
    public ProducerConfig(Duration sendTimeout, int maxBodyBytes, int retries, Duration failoverAfter) {
        this(sendTimeout, maxBodyBytes, retries, failoverAfter, BatchConfig.DEFAULTS, DEFAULT_MAX_HELD_BYTES);
    }

    /** One retry on another cluster, after {@link #DEFAULT_FAILOVER_AFTER} without an answer at the latest. */
    public ProducerConfig(Duration sendTimeout, int maxBodyBytes) {
        this(sendTimeout, maxBodyBytes, 1, DEFAULT_FAILOVER_AFTER);
    }

    public ProducerConfig withBatch(BatchConfig gathering) {
        return new ProducerConfig(sendTimeout, maxBodyBytes, retries, failoverAfter, gathering, maxHeldBytes);
    }

    public ProducerConfig withMaxHeldBytes(long bytes) {
        return new ProducerConfig(sendTimeout, maxBodyBytes, retries, failoverAfter, batch, bytes);
    }
}

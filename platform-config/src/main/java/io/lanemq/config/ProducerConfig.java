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
 */
public record ProducerConfig(Duration sendTimeout, int maxBodyBytes, int retries, Duration failoverAfter) {
    /**
     * 1 s: far above a healthy send here (p99 3 ms on loopback, tens of ms on a loaded 2-core host or across
     * IDCs), so a busy cluster is not abandoned, and short enough that a silent partition costs each caller
     * about a second once, before the failover marks the cluster down.
     */
    public static final Duration DEFAULT_FAILOVER_AFTER = Duration.ofSeconds(1);
    public static final ProducerConfig DEFAULTS = new ProducerConfig(Duration.ofSeconds(3), 4 * 1024 * 1024);

    /** One retry on another cluster, after {@link #DEFAULT_FAILOVER_AFTER} without an answer at the latest. */
    public ProducerConfig(Duration sendTimeout, int maxBodyBytes) {
        this(sendTimeout, maxBodyBytes, 1, DEFAULT_FAILOVER_AFTER);
    }
}

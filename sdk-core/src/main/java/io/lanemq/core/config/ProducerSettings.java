package io.lanemq.core.config;

import java.time.Duration;

/**
 * Settings every producer of the client follows.
 *
 * @param sendTimeout  how long one send attempt may wait for the broker
 * @param maxBodyBytes the largest body accepted
 * @param retries      how many other clusters a failed send may be retried on (0: none)
 */
public record ProducerSettings(Duration sendTimeout, int maxBodyBytes, int retries) {
    public static final ProducerSettings DEFAULTS = new ProducerSettings(Duration.ofSeconds(3), 4 * 1024 * 1024);

    /** One retry on another cluster. */
    public ProducerSettings(Duration sendTimeout, int maxBodyBytes) {
        this(sendTimeout, maxBodyBytes, 1);
    }
}

package io.lanemq.core.config;

import java.time.Duration;

/** Settings every producer of the client follows. */
public record ProducerSettings(Duration sendTimeout, int maxBodyBytes) {
    public static final ProducerSettings DEFAULTS = new ProducerSettings(Duration.ofSeconds(3), 4 * 1024 * 1024);
}

package io.lanemq.dialtest;

/**
 * Publishes the configuration-propagation probe's change: the rate limit of the probe key (a logic topic nothing
 * sends to) in the platform configuration the dial test's client reads. Implementations write where that configuration
 * lives (the embedded default: its file).
 */
interface ConfigPublisher {

    /** Where the change is published, for the table's broker column, e.g. {@code file} or {@code etcd}. */
    String source();

    /**
     * Publishes {@code marker} as the rate limit of logic topic {@code key}; returns once the change is written.
     *
     * @throws Exception the change could not be written (counted as a send failure of the probe)
     */
    void publish(String key, int marker) throws Exception;
}

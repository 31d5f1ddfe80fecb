package io.lanemq.console.health;

/**
 * Whether one application's SDK clients took the last configuration change.
 *
 * @param lastRejected the SDK's {@code lanemq_config_last_reload_failed} is 1: it kept the previous configuration
 * @param rejected     configuration changes it rejected since it started
 */
public record ClientReload(String application, String source, boolean lastRejected, long applied, long rejected) {
}

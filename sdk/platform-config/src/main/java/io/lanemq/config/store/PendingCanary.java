package io.lanemq.config.store;

import io.lanemq.config.Canary;

/**
 * The canary pending beside a configuration.
 *
 * @param canary   the candidate and its subset
 * @param revision the etcd revision that wrote it: what a promote or abandon expects it still to be
 */
public record PendingCanary(Canary canary, long revision) {
}

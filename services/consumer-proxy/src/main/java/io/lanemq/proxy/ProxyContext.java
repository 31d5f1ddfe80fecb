package io.lanemq.proxy;

import io.lanemq.support.Clocks;
import io.lanemq.support.attach.AttemptBudget;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.LongSupplier;

/**
 * What one proxy shares with every group it runs, handed down as one value instead of one argument each.
 *
 * @param options       the proxy's settings
 * @param tickThread    the one thread that ticks every group's dispatcher (redelivery, backoff)
 * @param deliveryIds   the proxy-wide delivery id sequence: an ack names a delivery unambiguously on any stream
 * @param metrics       the proxy's meters
 * @param attachBudget  bounds the attach attempts of all groups together, so a cluster that comes back is not hammered
 * @param clocks        the proxy's clocks
 */
record ProxyContext(ProxyServerOptions options, ScheduledExecutorService tickThread, LongSupplier deliveryIds,
                    ProxyMetrics metrics, AttemptBudget attachBudget, Clocks clocks) {
}

package io.lanemq.core.internal.produce;

import io.lanemq.core.internal.routing.ClusterChooser;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.support.Ticker;

/**
 * What every send of one producer routes with: the chooser that picks each attempt's cluster and hears its outcome,
 * the meters, the producer's record of which clusters answer, and its clock.
 */
record SendRouting(ClusterChooser chooser, SdkMetrics metrics, ClusterPulse pulse, Ticker ticker) {
}

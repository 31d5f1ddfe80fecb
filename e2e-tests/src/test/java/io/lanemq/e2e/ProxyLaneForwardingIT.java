package io.lanemq.e2e;

import io.lanemq.config.ConsumptionMode;

/** {@link LaneForwardingIT}'s tests with the lane group in PROXY mode: the consumer proxy routes the lanes. */
class ProxyLaneForwardingIT extends LaneForwardingIT {
    @Override
    ConsumptionMode mode() {
        return ConsumptionMode.PROXY;
    }
}

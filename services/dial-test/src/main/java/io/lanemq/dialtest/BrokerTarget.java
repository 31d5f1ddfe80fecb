package io.lanemq.dialtest;

import java.util.List;

/**
 * A master broker found on a name server, with the probe topic's queues on it: where one broker's probes go.
 *
 * @param queues the probe topic's write queues on this broker, in queue id order
 */
public record BrokerTarget(String cluster, String broker, String address,
                           List<org.apache.rocketmq.common.message.MessageQueue> queues) {

    public BrokerTarget {
        queues = List.copyOf(queues);
        if (queues.isEmpty()) {
            throw new IllegalArgumentException("broker " + broker + " of " + cluster + " has no probe queue");
        }
    }
}

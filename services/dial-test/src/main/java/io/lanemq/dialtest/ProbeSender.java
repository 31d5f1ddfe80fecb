package io.lanemq.dialtest;

import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;

/**
 * How probes of one {@link ProbeKind} are sent to an explicit queue. The extension point for new kinds: a
 * delayed probe through the project's delay server, once it exists, is one more implementation (sending to the
 * delay server's internal topic with the target queue in a property), registered in {@link ClusterProber}.
 */
interface ProbeSender {

    ProbeKind kind();

    /** How long after the send a probe is due to arrive: its delay, 0 for immediate kinds. */
    long delayMillis();

    /** Extra time the {@code laneSequence}-th probe of a lane may take beyond the grace (a check-back). */
    long allowanceNanos(long laneSequence);

    /**
     * Sends asynchronously; exactly one of the callback's methods is called, unless this throws.
     *
     * @param laneSequence how many probes this lane sent before this one (kinds alternate behaviours on it)
     */
    void send(Message message, MessageQueue queue, long laneSequence, SendCallback callback) throws Exception;
}

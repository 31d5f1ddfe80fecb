package io.lanemq.core.internal.produce;

import io.lanemq.api.CancelOutcome;
import io.lanemq.api.InvalidMessageException;
import io.lanemq.api.MessagingException;
import io.lanemq.api.SendFailedException;
import io.lanemq.config.PlatformConfig;
import io.lanemq.core.delay.DelayProtocol;
import io.lanemq.core.delay.DelayTicket;
import java.nio.charset.StandardCharsets;

/**
 * Cancels delayed messages: a CANCEL request on the internal delay topic of the cluster that
 * stored the message, answered by the delay server that holds it (request-reply through the
 * broker, so the SDK never needs to know where delay servers run).
 */
final class DelayCancels {
    private DelayCancels() {
    }

    static CancelOutcome cancel(String delayId, PlatformConfig snapshot, ClusterProducers clusters)
            throws MessagingException {
        DelayTicket ticket = DelayTicket.parse(delayId);
        if (!snapshot.clusters().containsKey(ticket.cluster())) {
            throw new InvalidMessageException("delay id " + delayId + " names cluster '" + ticket.cluster()
                    + "', which the platform configuration does not have (it has " + snapshot.clusters().keySet() + ")", null);
        }
        byte[] reply;
        try {
            reply = clusters.get(ticket.cluster()).request(DelayProtocol.cancel(snapshot.delay().internalTopic(), ticket.id()),
                    snapshot.delay().cancelTimeout());
        } catch (SendFailedException e) {
            throw new SendFailedException("cancel of delayed message " + delayId + " got no answer from a delay server: "
                    + e.reason() + "; if the request was stored, it stays queued and takes effect when a delay server reads it",
                    null, ticket.cluster(), e);
        }
        String answer = new String(reply, StandardCharsets.UTF_8);
        try {
            return CancelOutcome.valueOf(answer);
        } catch (IllegalArgumentException e) {
            throw new SendFailedException("the delay server answered the cancel of " + delayId + " with '" + answer
                    + "', not one of CANCELLED, ALREADY_DELIVERED, ALREADY_CANCELLED, UNKNOWN", null, ticket.cluster(), e);
        }
    }
}

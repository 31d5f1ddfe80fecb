package io.lanemq.rocketmq;

import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;

/**
 * The one reading of a broker's send status. Every status the broker answers is "stored": the
 * master has the message in its commit log. Only {@code SEND_OK} also means "flushed and replicated
 * as the broker is configured to"; {@code FLUSH_DISK_TIMEOUT}, {@code FLUSH_SLAVE_TIMEOUT} and
 * {@code SLAVE_NOT_AVAILABLE} mean it may still be lost with the master's disk or machine. A caller
 * that releases something on the strength of the send (an offset, a held message) must treat those
 * as "not yet": keep what it holds and send again (a possible duplicate, never a loss).
 */
final class SendStatuses {

    private SendStatuses() {
    }

    /** True only when the broker stored the message as durably as it is configured to. */
    static boolean storedAsConfigured(SendResult result) {
        return result.getSendStatus() == SendStatus.SEND_OK;
    }
}

package io.lanemq.proxy;

import io.lanemq.api.MessagingException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends a copy of a held message until the broker stored it as durably as it is configured to,
 * and only then lets the original go. A send that failed is tried again; so is one the broker
 * answered with a status below its configured durability ({@code FLUSH_DISK_TIMEOUT},
 * {@code FLUSH_SLAVE_TIMEOUT}, {@code SLAVE_NOT_AVAILABLE}): the copy is in the master's commit
 * log but may go with its disk, and releasing the original (committing its offset) would then lose
 * the message. Trying again may store a second copy: a duplicate, never a loss. The delay server's
 * re-enqueue makes the same choice. Runs on the publisher's one thread.
 */
final class UntilStored {
    private static final Logger log = LoggerFactory.getLogger(UntilStored.class);

    /** A send of one copy; true when stored as the broker is configured to, false when stored but not yet so. */
    @FunctionalInterface
    interface Send {
        boolean send() throws MessagingException;
    }

    private final ScheduledExecutorService executor;
    private final long retryMillis;

    /** @param executor one thread: sends are serial, in the order they were asked for */
    UntilStored(ScheduledExecutorService executor, long retryMillis) {
        this.executor = executor;
        this.retryMillis = retryMillis;
    }

    /**
     * Sends now on the calling thread (the executor's), again every {@code retryMillis} until stored;
     * {@code done} runs once then; {@code notYet} runs after each attempt that did not store it.
     */
    void send(String what, Send send, Runnable done, Runnable notYet) {
        try {
            if (send.send()) {
                done.run();
                return;
            }
            log.warn("{} is stored but not yet flushed or replicated as configured; keeping the original and sending "
                    + "again in {} ms", what, retryMillis);
        } catch (Exception e) {
            log.warn("{} failed; keeping the original and sending again in {} ms", what, retryMillis, e);
        }
        notYet.run();
        executor.schedule(() -> send(what, send, done, notYet), retryMillis, TimeUnit.MILLISECONDS);
    }
}

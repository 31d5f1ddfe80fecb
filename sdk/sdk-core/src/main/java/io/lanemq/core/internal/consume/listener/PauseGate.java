package io.lanemq.core.internal.consume.listener;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.spi.BoundListener;

/**
 * What a paused subscription's messages wait at before its listener: a binding's fetch that was under way when the
 * pause came still delivers, and those messages must neither reach the listener nor go back to the broker as a failed
 * attempt. The binding's listener thread waits here, holding the message unacknowledged, until the subscription
 * resumes or closes (a close lets them through, so nothing held comes back as a failure). Thread-safe.
 */
public final class PauseGate {
    private boolean paused;
    private boolean open;
    private int holding;

    /** Holds the messages that arrive from now on. */
    public synchronized void pause() {
        paused = true;
    }

    /** Lets held and later messages through. */
    public synchronized void resume() {
        paused = false;
        notifyAll();
    }

    /** Lets everything through from now on, paused or not: the subscription is closing. */
    public synchronized void openForClose() {
        open = true;
        notifyAll();
    }

    public synchronized boolean paused() {
        return paused;
    }

    /** Messages waiting here now. */
    public synchronized int holding() {
        return holding;
    }

    /** {@code listener} behind this gate. */
    public BoundListener guard(BoundListener listener) {
        return message -> pass() ? listener.onMessage(message) : ConsumeResult.RETRY_LATER;
    }

    /** Waits while paused; false when interrupted (the binding is shutting its threads down). */
    private synchronized boolean pass() {
        holding++;
        try {
            while (paused && !open) {
                wait();
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            holding--;
        }
    }
}

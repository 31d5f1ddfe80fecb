package io.lanemq.config.etcd;

import io.lanemq.support.NamedThreads;
import io.lanemq.support.Backoff;
import io.lanemq.config.etcd.EtcdClient.WatchCall;
import io.lanemq.config.etcd.internal.Event;
import io.lanemq.config.etcd.internal.WatchResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The thread behind {@link EtcdClient#watch}: one watch stream at a time, each started from {@link #nextRevision()}.
 *
 * <p>gRPC callbacks only queue what arrives; this thread takes it, so the listener is called from one thread in
 * revision order and a slow listener never stalls gRPC's I/O. After each response the next revision moves past
 * the response header's revision (for etcd, every later event of the watcher is newer than that), so a new
 * stream after a failure resumes exactly where the old one stopped. Two cases re-read the key instead: etcd
 * cancels the watch because that history was compacted, or etcd's current revision is behind what was seen
 * (its data was restored or replaced). Of several events in one response only the last matters: each carries
 * the whole document.
 *
 * <p>A failure is logged once per outage (at WARN; the return at INFO); the waits between attempts end early
 * when the watch is closed.
 */
final class KeyWatcher implements KeyWatch {
    private static final Logger LOG = LoggerFactory.getLogger(KeyWatcher.class);
    private static final Object CLOSE = new Object();

    private final EtcdClient client;
    private final String key;
    private final KeyWatchListener listener;
    private final Backoff backoff;
    private final Thread thread;
    private final CountDownLatch closedLatch = new CountDownLatch(1);
    private volatile BlockingQueue<Object> inbox;
    private volatile WatchCall active;
    private volatile boolean connected;
    private volatile long next;
    private volatile boolean closed;
    private boolean outageLogged;
    /** Read the key once the first stream is up, before any event: the caller has no value from etcd yet. */
    private boolean readFirst;

    KeyWatcher(EtcdClient client, String key, long fromRevision, KeyWatchListener listener, Backoff backoff, boolean readFirst) {
        this.readFirst = readFirst;
        this.client = client;
        this.key = key;
        this.listener = listener;
        this.backoff = backoff;
        this.next = fromRevision;
        this.thread = NamedThreads.daemon("lanemq-config-watch-etcd" + (key.startsWith("/") ? "" : "-") + key, this::run);
    }

    void start() {
        thread.start();
    }

    @Override
    public boolean isConnected() {
        return connected;
    }

    @Override
    public long nextRevision() {
        return next;
    }

    private void run() {
        int failures = 0;
        try {
            while (!closed) {
                try {
                    session();
                    failures = 0;
                } catch (SessionFailure failure) {
                    connected = false;
                    failures++;
                    if (failure.call != null) {
                        client.endpointFailed(failure.call.endpointIndex);
                    }
                    if (!outageLogged && !closed) {
                        LOG.warn("etcd watch of key '{}' on [{}] failed: {}; retrying with backoff from revision {}, "
                                + "the last good configuration stays in force", key, client.describe(), failure.getMessage(), next);
                        outageLogged = true;
                    }
                    pause(backoff.delay(failures));
                } catch (RuntimeException e) {
                    // A bug, not an outage: say so loudly, then keep watching rather than go silent for good.
                    LOG.error("etcd watch of key '{}' hit an unexpected error; retrying", key, e);
                    failures++;
                    pause(backoff.delay(failures));
                }
            }
        } finally {
            connected = false;
            client.watchClosed(this);
        }
    }

    /** Runs one stream; returns to start another at once (after a re-read) or when closed; throws when it failed. */
    private void session() throws SessionFailure {
        BlockingQueue<Object> box = new LinkedBlockingQueue<>();
        inbox = box;
        if (closed) {
            return;
        }
        WatchCall call;
        try {
            call = client.openWatch(key, next, box::add);
        } catch (RuntimeException e) {
            throw new SessionFailure(null, EtcdClient.describe(e));
        } catch (EtcdException e) {
            throw new SessionFailure(null, e.getMessage());
        }
        active = call;
        try {
            while (true) {
                Object item = box.take();
                if (item == CLOSE) {
                    return;
                }
                if (item instanceof Throwable t) {
                    client.watchRefused(t);
                    throw new SessionFailure(call, EtcdClient.describe(t));
                }
                if (item == WatchCall.COMPLETED) {
                    throw new SessionFailure(call, "etcd ended the watch stream");
                }
                WatchResponse response = (WatchResponse) item;
                long headerRevision = response.getHeader().getRevision();
                if (response.getCanceled()) {
                    if (response.getCompactRevision() > 0) {
                        reread(call, "its history before revision " + response.getCompactRevision() + " was compacted");
                        return;
                    }
                    client.watchRefused(null);
                    throw new SessionFailure(call, "etcd cancelled the watch: " + response.getCancelReason());
                }
                if (response.getCreated()) {
                    connected = true;
                    if (outageLogged) {
                        LOG.info("etcd watch of key '{}' re-established on {} from revision {}", key, call.endpoint, next);
                        outageLogged = false;
                    }
                    if (readFirst) {
                        reread(call, "the client started without its current value");
                        readFirst = false;
                        return;
                    }
                    if (headerRevision < next - 1) {
                        reread(call, "etcd's revision " + headerRevision + " is behind the last one seen, " + (next - 1));
                        return;
                    }
                    continue;
                }
                if (response.getEventsCount() > 0) {
                    Event last = response.getEvents(response.getEventsCount() - 1);
                    deliver(last, headerRevision);
                    next = Math.max(next, last.getKv().getModRevision() + 1);
                }
                next = Math.max(next, headerRevision + 1);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closed = true;
        } finally {
            active = null;
            call.cancel();
        }
    }

    private void reread(WatchCall call, String why) throws SessionFailure {
        LOG.info("re-reading etcd key '{}': {}", key, why);
        EtcdClient.Read read;
        try {
            read = client.read(key);
        } catch (EtcdException e) {
            throw new SessionFailure(call, e.getMessage());
        }
        try {
            if (read.entry() != null) {
                listener.onPut(read.entry());
            } else {
                listener.onDelete(key, read.storeRevision());
            }
        } catch (RuntimeException e) {
            LOG.warn("listener of etcd key '{}' failed", key, e);
        }
        next = read.storeRevision() + 1;
    }

    private void deliver(Event event, long storeRevision) {
        try {
            if (event.getType() == Event.EventType.DELETE) {
                listener.onDelete(key, event.getKv().getModRevision());
            } else {
                listener.onPut(new EtcdEntry(key, event.getKv().getValue().toString(StandardCharsets.UTF_8),
                        event.getKv().getModRevision(), storeRevision));
            }
        } catch (RuntimeException e) {
            // The watch must outlive a faulty listener.
            LOG.warn("listener of etcd key '{}' failed", key, e);
        }
    }

    private void pause(Duration delay) {
        try {
            closedLatch.await(delay.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closed = true;
        }
    }

    /** Stops the thread, waiting (up to 5 s) for a listener call in progress. */
    @Override
    public void close() {
        closed = true;
        closedLatch.countDown();
        BlockingQueue<Object> box = inbox;
        if (box != null) {
            box.add(CLOSE);
        }
        WatchCall call = active;
        if (call != null) {
            call.cancel();
        }
        if (Thread.currentThread() != thread) {
            try {
                thread.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static final class SessionFailure extends Exception {
        private static final long serialVersionUID = 1L;
        private final transient WatchCall call;

        SessionFailure(WatchCall call, String message) {
            super(message, null, false, false);
            this.call = call;
        }
    }
}

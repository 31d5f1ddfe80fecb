package io.lanemq.core.internal.consume.proxy;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs tasks on a shared executor, one at a time and in submission order per key, concurrently across
 * keys. The proxy already sends one message per sharding key at a time; this keeps the order also
 * across a reconnect, when a redelivery may arrive while the previous stream's listener call still runs.
 */
final class KeyedSerialExecutor {
    private static final Logger log = LoggerFactory.getLogger(KeyedSerialExecutor.class);

    private final Executor executor;
    /** Keys with a task running; their queued successors. Guarded by itself. */
    private final Map<String, ArrayDeque<Runnable>> busy = new HashMap<>();

    KeyedSerialExecutor(Executor executor) {
        this.executor = executor;
    }

    /** @throws java.util.concurrent.RejectedExecutionException when the executor no longer takes tasks */
    void execute(String key, Runnable task) {
        synchronized (busy) {
            ArrayDeque<Runnable> queued = busy.get(key);
            if (queued != null) {
                queued.add(task);
                return;
            }
            busy.put(key, new ArrayDeque<>());
        }
        try {
            executor.execute(() -> runInOrder(key, task));
        } catch (RuntimeException e) {
            synchronized (busy) {
                busy.remove(key);
            }
            throw e;
        }
    }

    private void runInOrder(String key, Runnable first) {
        Runnable next = first;
        while (next != null) {
            try {
                next.run();
            } catch (RuntimeException e) {
                log.error("a task of key {} failed; the key's next task runs anyway", key, e);
            }
            synchronized (busy) {
                next = busy.get(key).poll();
                if (next == null) {
                    busy.remove(key);
                }
            }
        }
    }
}

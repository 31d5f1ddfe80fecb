package io.lanemq.support;

import java.util.ArrayList;
import java.util.List;

/**
 * Closes several independent resources at once and returns when all are closed. A RocketMQ client
 * instance takes up to 3 s to shut down (its channel-event thread polls every 3 s), so closing a
 * producer or consumer's clusters one after another costs that once per cluster.
 *
 * <pre>{@code
 * ParallelClose.all("lanemq-close-orders", List.of(clusterA::close, clusterB::close));
 * }</pre>
 */
public final class ParallelClose {
    private ParallelClose() {
    }

    /**
     * Runs every closer, the first on the caller's thread and the others each on a daemon thread named
     * {@code threadName-N}, and waits for all. Every closer runs whatever the others do; once all have finished,
     * the failure of the first closer (in list order) that failed is rethrown with the later ones suppressed.
     */
    public static void all(String threadName, List<? extends Runnable> closers) {
        List<Thread> threads = new ArrayList<>(closers.size());
        RuntimeException[] failures = new RuntimeException[closers.size()];
        for (int i = 1; i < closers.size(); i++) {
            int index = i;
            threads.add(NamedThreads.start(threadName + "-" + i, () -> failures[index] = run(closers.get(index))));
        }
        if (!closers.isEmpty()) {
            failures[0] = run(closers.get(0));
        }
        boolean interrupted = false;
        for (Thread thread : threads) {
            while (true) {
                try {
                    thread.join();
                    break;
                } catch (InterruptedException e) {
                    // A close is not abandoned half-way: the interrupt is kept for the caller.
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        // Thread.join orders every closer's write to failures before these reads.
        RuntimeException first = null;
        for (RuntimeException failure : failures) {
            if (failure == null) {
                continue;
            }
            if (first == null) {
                first = failure;
            } else {
                first.addSuppressed(failure);
            }
        }
        if (first != null) {
            throw first;
        }
    }

    private static RuntimeException run(Runnable closer) {
        try {
            closer.run();
            return null;
        } catch (RuntimeException e) {
            return e;
        }
    }
}

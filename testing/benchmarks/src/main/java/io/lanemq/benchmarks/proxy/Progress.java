package io.lanemq.benchmarks.proxy;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/** Prints a line of progress every few seconds while a phase runs, so a slow drain shows where it stands. */
final class Progress implements AutoCloseable {
    private final ScheduledExecutorService printer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "bench-progress");
        thread.setDaemon(true);
        return thread;
    });

    private Progress(long periodSeconds, Supplier<String> line) {
        printer.scheduleAtFixedRate(() -> System.out.println("    .. " + line.get()), periodSeconds, periodSeconds, TimeUnit.SECONDS);
    }

    static Progress every(long periodSeconds, Supplier<String> line) {
        return new Progress(periodSeconds, line);
    }

    @Override
    public void close() {
        printer.shutdownNow();
    }
}

package io.lanemq.delay;

import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Records what the engine delivers and the clock reading at that moment. By default confirms at
 * once; {@link #hold()} keeps futures open (deliveries under way), {@link #failNext(int)} fails.
 */
final class RecordingSink implements DeliverySink {

    record Delivery(DelayedRecord record, long at, String thread) {
    }

    private final InstantSource clock;
    private final List<Delivery> deliveries = new ArrayList<>();
    private final List<CompletableFuture<Void>> held = new ArrayList<>();
    private boolean holding;
    private int failures;

    RecordingSink(InstantSource clock) {
        this.clock = clock;
    }

    @Override
    public synchronized CompletionStage<?> deliver(DelayedRecord record) {
        deliveries.add(new Delivery(record, clock.millis(), Thread.currentThread().getName()));
        if (failures > 0) {
            failures--;
            return CompletableFuture.failedFuture(new IllegalStateException("broker said no"));
        }
        if (holding) {
            CompletableFuture<Void> f = new CompletableFuture<>();
            held.add(f);
            return f;
        }
        return CompletableFuture.completedFuture(null);
    }

    synchronized List<Delivery> deliveries() {
        return List.copyOf(deliveries);
    }

    synchronized List<DelayId> ids() {
        return deliveries.stream().map(d -> d.record().id()).toList();
    }

    synchronized void hold() {
        holding = true;
    }

    synchronized void failNext(int n) {
        failures = n;
    }

    /** Confirms every held delivery. */
    void release() {
        List<CompletableFuture<Void>> toComplete;
        synchronized (this) {
            holding = false;
            toComplete = new ArrayList<>(held);
            held.clear();
        }
        toComplete.forEach(f -> f.complete(null));
    }
}

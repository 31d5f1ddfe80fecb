package io.lanemq.delay;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.support.FakeClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConcurrencyTest {

    @TempDir
    Path dir;

    @Test
    void schedulesCancelsAndFiringsRacingEachOtherLoseAndRepeatNothing() throws Exception {
        try (EngineFixture f = new EngineFixture(dir, new FakeClock(), b -> b.maxOpenSegments(8)
                .bucketSpan(Duration.ofSeconds(1)))) {
            long t0 = f.clock.millis();
            ConcurrentLinkedQueue<DelayId> kept = new ConcurrentLinkedQueue<>();
            ConcurrentLinkedQueue<DelayId> cancelled = new ConcurrentLinkedQueue<>();
            List<Thread> producers = new ArrayList<>();
            ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
            for (int p = 0; p < 4; p++) {
                Thread t = new Thread(() -> {
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    try {
                        for (int i = 0; i < 2_000; i++) {
                            // Due around the moving clock: some already past, some in loaded buckets, some far.
                            long due = f.clock.millis() - 50 + random.nextLong(40_000);
                            DelayedRecord r = f.record(due, "p" + i);
                            f.engine.schedule(r);
                            if (i % 5 == 0) {
                                CancelResult result = f.engine.cancel(r.id());
                                (result == CancelResult.CANCELLED ? cancelled : kept).add(r.id());
                            } else {
                                kept.add(r.id());
                            }
                        }
                    } catch (Throwable e) {
                        errors.add(e);
                    }
                }, "producer-" + p);
                producers.add(t);
                t.start();
            }
            long t = t0;
            while (producers.stream().anyMatch(Thread::isAlive)) {
                t += 7;
                f.advanceTo(t);
            }
            for (Thread p : producers) {
                p.join();
            }
            assertThat(errors).isEmpty();
            f.advanceTo(t + 60_000);

            List<DelayId> delivered = f.sink.ids();
            assertThat(new HashSet<>(delivered)).hasSameSizeAs(delivered); // nothing twice
            Set<DelayId> expected = new HashSet<>(kept);
            assertThat(new HashSet<>(delivered)).isEqualTo(expected); // nothing lost, nothing cancelled delivered
            assertThat(kept.size() + cancelled.size()).isEqualTo(8_000);
            assertThat(f.engine.pendingCount()).isZero();
            for (RecordingSink.Delivery d : f.sink.deliveries()) {
                assertThat(d.at()).isGreaterThanOrEqualTo(d.record().dueAtMillis()); // never early
            }
        }
    }
}

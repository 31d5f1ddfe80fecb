package io.lanemq.delay.server;

import io.lanemq.api.Message;
import io.lanemq.api.Producer;
import io.lanemq.api.SendResult;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;

/** Sends delayed messages through the SDK's public API, each keyed {@code <prefix>-<i>} and carrying its due time. */
final class DelayedSender {

    record Sent(String key, long dueAt, String delayId) {
    }

    private DelayedSender() {
    }

    /** {@code n} messages due between {@code minDelayMs} and {@code maxDelayMs} from now, sent with bounded concurrency. */
    static List<Sent> send(Producer producer, String logicTopic, String prefix, int n, long minDelayMs,
            long maxDelayMs) throws Exception {
        Semaphore inFlight = new Semaphore(256);
        List<CompletableFuture<Sent>> futures = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            long now = System.currentTimeMillis();
            long due = now + ThreadLocalRandom.current().nextLong(minDelayMs, maxDelayMs + 1);
            String key = prefix + "-" + i;
            Message message = Message.builder(logicTopic).keys(key).tag("t" + (i % 3)).property(Arrivals.DUE_AT,
                    Long.toString(due)).property(Arrivals.SENT_AT, Long.toString(now)).body(("body of " + key).getBytes(StandardCharsets.UTF_8))
                    .deliverAt(Instant.ofEpochMilli(due)).build();
            inFlight.acquire();
            futures.add(producer.sendAsync(message).whenComplete((r, e) -> inFlight.release())
                    .thenApply((SendResult r) -> new Sent(key, due, r.delayId().orElseThrow())));
        }
        List<Sent> sent = new ArrayList<>(n);
        for (CompletableFuture<Sent> f : futures) {
            sent.add(f.get());
        }
        return sent;
    }
}

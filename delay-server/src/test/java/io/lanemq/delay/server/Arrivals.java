package io.lanemq.delay.server;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.MessageListener;
import io.lanemq.api.ReceivedMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.HdrHistogram.Histogram;
import org.awaitility.Awaitility;

/** Records every delayed message that reaches its logic topic: when, against its due time (property {@code due-at}). */
final class Arrivals implements MessageListener {

    static final String DUE_AT = "due-at";
    static final String SENT_AT = "sent-at";

    /**
     * One delivery: {@code bornAt} is when the original was sent, {@code deliveredAt} when the delay server's copy
     * was born on {@code cluster}'s logic topic (the broker's born timestamp), {@code at} when it was consumed.
     */
    record Arrival(String key, long dueAt, long at, long bornAt, String cluster, int queueId, long deliveredAt) {
        long lateBy() {
            return at - dueAt;
        }
    }

    final Map<String, AtomicInteger> countByKey = new ConcurrentHashMap<>();
    final ConcurrentLinkedQueue<Arrival> all = new ConcurrentLinkedQueue<>();
    /** Keys with this prefix are not recorded (a warm-up message re-read after a crash is not under test). */
    private volatile String ignored = "\0";

    void ignore(String keyPrefix) {
        ignored = keyPrefix;
    }

    @Override
    public ConsumeResult consume(ReceivedMessage message) {
        long now = System.currentTimeMillis();
        String key = message.keys().get(0);
        if (key.startsWith(ignored)) {
            return ConsumeResult.SUCCESS;
        }
        all.add(new Arrival(key, Long.parseLong(message.properties().get(DUE_AT)), now,
                Long.parseLong(message.properties().get(SENT_AT)), message.cluster(), message.queueId(),
                message.bornTimestamp()));
        countByKey.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
        return ConsumeResult.SUCCESS;
    }

    /**
     * Waits until no message has arrived for {@code quiet}, so late copies (a redelivery, an abandoned attempt
     * stored after all) are counted before duplicates are asserted or printed. A check, not a fixed wait: it
     * keeps waiting while copies still arrive, up to {@code quiet} plus 30 s.
     */
    void awaitStill(Duration quiet) {
        long[] last = {-1};
        Awaitility.await().during(quiet).atMost(quiet.plusSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> {
                    long arrived = all.size();
                    boolean still = arrived == last[0];
                    last[0] = arrived;
                    return still;
                });
    }

    int distinct() {
        return countByKey.size();
    }

    /** Deliveries beyond the first, over all keys. */
    long duplicates() {
        return countByKey.values().stream().mapToInt(AtomicInteger::get).filter(n -> n > 1).map(n -> n - 1).sum();
    }

    List<Arrival> early() {
        List<Arrival> out = new ArrayList<>();
        for (Arrival a : all) {
            if (a.at() < a.dueAt()) {
                out.add(a);
            }
        }
        return out;
    }

    /** p50 / p99 / max of arrival minus due time, in ms, as one line. */
    String lateness() {
        return latenessOfDelaysOver(Long.MIN_VALUE);
    }

    /** The same for messages sent at least {@code delayMillis} before they were due (so no ingest backlog counts). */
    String latenessOfDelaysOver(long delayMillis) {
        Histogram h = new Histogram(3_600_000L, 3);
        for (Arrival a : all) {
            if (a.dueAt() - a.bornAt() >= delayMillis) {
                h.recordValue(Math.max(0, a.lateBy()));
            }
        }
        return String.format("n=%d p50=%d ms p99=%d ms max=%d ms", h.getTotalCount(), h.getValueAtPercentile(50),
                h.getValueAtPercentile(99), h.getMaxValue());
    }
}

package io.lanemq.delay.server;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.MessageListener;
import io.lanemq.api.ReceivedMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
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
    /** Every copy consumed, ignored ones included, as cluster/queue/offset: what the broker stored and we read. */
    private final Set<String> copies = ConcurrentHashMap.newKeySet();
    /** Keys with this prefix are not recorded (a warm-up message re-read after a crash is not under test). */
    private volatile String ignored = "\0";

    void ignore(String keyPrefix) {
        ignored = keyPrefix;
    }

    @Override
    public ConsumeResult consume(ReceivedMessage message) {
        long now = System.currentTimeMillis();
        copies.add(message.cluster() + "/" + message.queueId() + "/" + message.queueOffset());
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
     * Waits until every copy the brokers hold of the topic ({@code stored}: its queues' max offsets, summed) has been
     * consumed, so late copies (a redelivery, an abandoned attempt stored after all) are counted before duplicates
     * are asserted or printed. A check that reveals an extra copy, where waiting for arrivals to go quiet only hoped
     * to: an extra copy stored is an extra copy consumed before this returns.
     */
    void awaitEveryStoredCopy(LongSupplier stored) {
        Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> copies.size() >= stored.getAsLong());
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

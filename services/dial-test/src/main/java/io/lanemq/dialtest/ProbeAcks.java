package io.lanemq.dialtest;

import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What every probe consumer does with what it received, whichever client received it (a raw RocketMQ consumer of the
 * probe topic, the SDK's consumer of a logic topic): acks each tracked probe to the producer address in its body, one
 * batch of frames per producer.
 *
 * <p>Not acked (counted under {@link DialTestMetrics#PROBES_SKIPPED}): messages that are not probes, and probes long
 * past their due time (left over from an earlier run; their producer is gone). Untracked probes are simply consumed.
 */
final class ProbeAcks {

    /** One received message: its body and how often it was delivered before. */
    record Delivery(byte[] body, int reconsumeTimes) {
    }

    private final DialTestOptions config;
    private final AckSender acks;
    private final DialTestMetrics metrics;
    private final InstantSource wallClock;
    /** The cluster tag of a message that is not a probe (its body names none). */
    private final String fallbackCluster;

    ProbeAcks(DialTestOptions config, AckSender acks, DialTestMetrics metrics, InstantSource wallClock,
              String fallbackCluster) {
        this.config = config;
        this.acks = acks;
        this.metrics = metrics;
        this.wallClock = wallClock;
        this.fallbackCluster = fallbackCluster;
    }

    /** Acks the tracked probes among {@code deliveries}; an ack that cannot be delivered is counted, never retried. */
    void ack(List<Delivery> deliveries) {
        Map<String, List<AckFrame>> byProducer = new LinkedHashMap<>();
        Map<String, ProbeBody> sample = new LinkedHashMap<>();
        long now = wallClock.millis();
        for (Delivery delivery : deliveries) {
            ProbeBody body = decode(delivery.body());
            if (body == null || !body.tracked()) {
                continue;
            }
            if (now - (body.sendEpochMillis() + body.delayMillis()) > config.staleAfter().toMillis()) {
                metrics.probeSkipped(body.cluster(), DialTestMetrics.SKIP_STALE);
                continue;
            }
            String producer = body.ackHost() + ":" + body.ackPort();
            byProducer.computeIfAbsent(producer, p -> new ArrayList<>()).add(
                new AckFrame(body.runId(), body.sequence(), body.kind(), now, delivery.reconsumeTimes()));
            sample.putIfAbsent(producer, body);
        }
        for (Map.Entry<String, List<AckFrame>> entry : byProducer.entrySet()) {
            ProbeBody body = sample.get(entry.getKey());
            int undelivered = acks.send(body.ackHost(), body.ackPort(), entry.getValue());
            for (int i = 0; i < undelivered; i++) {
                metrics.ackUndelivered(body.cluster());
            }
        }
    }

    private ProbeBody decode(byte[] body) {
        try {
            return ProbeBody.decode(body);
        } catch (IllegalArgumentException e) {
            metrics.probeSkipped(fallbackCluster, DialTestMetrics.SKIP_MALFORMED);
            return null;
        }
    }
}

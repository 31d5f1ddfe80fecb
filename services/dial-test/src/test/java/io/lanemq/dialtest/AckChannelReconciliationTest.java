package io.lanemq.dialtest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.support.FakeClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The producer's half (reconciler, ack listener) and the consumer's ack path (TCP sender) wired as in a run, with
 * k acks dropped and d duplicated on the way: the report says exactly k lost and d duplicated.
 */
class AckChannelReconciliationTest {

    private static final long RUN = 5;

    @Test
    void reportsExactlyTheAcksLostAndDuplicatedOnTheWay() {
        FakeClock clock = new FakeClock();
        DialTestMetrics metrics = new DialTestMetrics(new SimpleMeterRegistry());
        Reconciler reconciler = new Reconciler(RUN, clock, clock, Duration.ofSeconds(5), Duration.ofSeconds(60), metrics);
        int probes = 1_000;
        int k = 37;
        int d = 23;
        try (AckListener listener = AckListener.start(new InetSocketAddress("127.0.0.1", 0), AckCodecTest.SECRET,
                reconciler, metrics, clock, 4, Duration.ofMinutes(1));
             AckSender sender = new FaultInjectingAckSender(new TcpAckSender(AckCodecTest.SECRET, clock), k, d)) {
            LaneKey[] keys = {new LaneKey("c", "b0", ProbeKind.NORMAL), new LaneKey("c", "b1", ProbeKind.TRANSACTIONAL)};
            List<AckFrame> batch = new ArrayList<>();
            for (int seq = 0; seq < probes; seq++) {
                LaneKey key = keys[seq % 2];
                reconciler.track(seq, reconciler.lane(key), clock.read(), 0, 0);
                reconciler.sent(reconciler.lane(key));
                batch.add(new AckFrame(RUN, seq, key.kind(), clock.millis(), 0));
                if (batch.size() == 16) {
                    assertThat(sender.send("127.0.0.1", listener.address().getPort(), batch)).isZero();
                    batch.clear();
                }
            }
            sender.send("127.0.0.1", listener.address().getPort(), batch);
            await().atMost(Duration.ofSeconds(10)).until(() -> reconciler.totals().total().acked() == probes - k);
            await().atMost(Duration.ofSeconds(10)).until(() -> reconciler.totals().total().duplicated() == d);
            clock.advance(Duration.ofSeconds(6));
            LaneCounts total = reconciler.reconcile().total();
            assertThat(total.sent()).isEqualTo(probes);
            assertThat(total.lost()).isEqualTo(k);
            assertThat(total.duplicated()).isEqualTo(d);
            assertThat(total.acked()).isEqualTo(probes - k);
        }
    }
}

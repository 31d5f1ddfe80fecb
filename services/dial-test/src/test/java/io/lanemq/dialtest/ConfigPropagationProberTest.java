package io.lanemq.dialtest;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.config.ClusterConfig;
import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.PlatformConfigRef;
import io.lanemq.config.TopicRoute;
import io.lanemq.support.FakeClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ConfigPropagationProberTest {

    private static final String KEY = "probe-key";
    private static final Duration GRACE = Duration.ofSeconds(10);
    private static final LaneKey LANE = new LaneKey(ConfigPropagationProber.CLUSTER, "fake", ProbeKind.CONFIG_PROPAGATION);

    private final FakeClock clock = new FakeClock();
    private final Reconciler reconciler = new Reconciler(7, clock, clock, GRACE, Duration.ofSeconds(60),
        new DialTestMetrics(new SimpleMeterRegistry()));
    private final PlatformConfigRef config = new PlatformConfigRef(config(0));
    private volatile Instant lastApplied = clock.instant();
    private final AtomicLong sequences = new AtomicLong();

    @Test
    void aChangeTheClientAppliedCountsAsAckedWithTheTimeTheClientTookToApplyIt() {
        // The client applies the change 120 ms after the publish, by its own account.
        ConfigPublisher applying = publisher((key, marker) -> {
            config.swap(config(marker));
            lastApplied = clock.instant().plusMillis(120);
        });
        prober(applying).probeOnce();
        Report report = reconciler.reconcile();
        LaneReport row = report.lane(LANE.cluster(), LANE.broker(), LANE.kind()).orElseThrow();
        assertThat(row.counts()).isEqualTo(new LaneCounts(1, 0, 1, 0, 0, 0, 0));
        assertThat(row.latency().maxMicros()).as("publish to applied, HdrHistogram's precision").isBetween(119_000L, 121_000L);
    }

    @Test
    void aChangeNeverAppliedIsLostAfterTheGraceAndAFailedPublishIsASendFailure() {
        // Never applied: the grace passes while the prober waits (the clock moves on during the publish).
        prober(publisher((key, marker) -> clock.advance(GRACE.plusMillis(1)))).probeOnce();
        ConfigPropagationProber failing = prober(publisher((key, marker) -> {
            throw new IllegalStateException("etcd unreachable");
        }));
        failing.probeOnce();
        clock.advance(GRACE.plusMillis(1));
        LaneCounts counts = reconciler.reconcile().lane(LANE.cluster(), LANE.broker(), LANE.kind()).orElseThrow().counts();
        assertThat(counts).isEqualTo(new LaneCounts(1, 1, 0, 1, 0, 0, 0));
    }

    private ConfigPropagationProber prober(ConfigPublisher publisher) {
        return new ConfigPropagationProber(KEY, publisher, () -> config, () -> lastApplied, reconciler, sequences,
            Duration.ofSeconds(1), GRACE, clock, clock);
    }

    private interface Publish {
        void publish(String key, int marker) throws Exception;
    }

    private static ConfigPublisher publisher(Publish publish) {
        return new ConfigPublisher() {
            @Override
            public String source() {
                return "fake";
            }

            @Override
            public void publish(String key, int marker) throws Exception {
                publish.publish(key, marker);
            }
        };
    }

    private static PlatformConfig config(int rateLimit) {
        try {
            return PlatformConfig.builder().cluster(new ClusterConfig("cluster-a", "idc-a", "127.0.0.1:9876", Map.of()))
                .topic(new LogicTopicConfig(KEY, List.of(new TopicRoute("cluster-a", "probe_key", 1)), Map.of(), rateLimit))
                .build();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}

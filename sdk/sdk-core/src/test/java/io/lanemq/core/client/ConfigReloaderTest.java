package io.lanemq.core.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.config.ClusterConfig;
import io.lanemq.config.ConfigSubscriber;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.PlatformConfigRef;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.support.FakeClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigReloaderTest {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final FakeClock clock = new FakeClock();

    private static PlatformConfig config(String nameServer) throws Exception {
        return PlatformConfig.builder().cluster(new ClusterConfig("a", "idc-a", nameServer, Map.of())).build();
    }

    /** Records what it was told, and objects to name server 127.0.0.1:3 to play a consumer in use. */
    private static final class Recorder implements ConfigSubscriber {
        final List<String> applied = new ArrayList<>();

        @Override
        public List<String> conflicts(PlatformConfig next) {
            return next.cluster("a").nameServer().endsWith(":3") ? List.of("cluster a is in use") : List.of();
        }

        @Override
        public void apply(PlatformConfig previous, PlatformConfig next) {
            applied.add(previous.cluster("a").nameServer() + "->" + next.cluster("a").nameServer());
        }
    }

    private double reloads(String outcome) {
        return registry.get(SdkMetrics.CONFIG_RELOADS).tag(SdkMetrics.TAG_OUTCOME, outcome).counter().count();
    }

    private double lastFailed() {
        return registry.get(SdkMetrics.CONFIG_LAST_RELOAD_FAILED).gauge().value();
    }

    @Test
    void changeIsSwappedThenAppliedToEverySubscriber() throws Exception {
        PlatformConfigRef ref = new PlatformConfigRef(config("127.0.0.1:1"));
        Recorder first = new Recorder();
        Recorder second = new Recorder();
        ConfigReloader reloader = new ConfigReloader("test", () -> true, ref, () -> List.of(first, second), new SdkMetrics(registry, "test"), clock);

        reloader.onChange(config("127.0.0.1:2"));

        assertThat(ref.current().cluster("a").nameServer()).isEqualTo("127.0.0.1:2");
        assertThat(first.applied).containsExactly("127.0.0.1:1->127.0.0.1:2");
        assertThat(second.applied).containsExactly("127.0.0.1:1->127.0.0.1:2");
        assertThat(reloads("applied")).isEqualTo(1);
        assertThat(lastFailed()).isZero();
        assertThat(reloader.lastRejection()).isEmpty();
    }

    @Test
    void changeASubscriberObjectsToIsRejectedAndTheOldSnapshotStays() throws Exception {
        PlatformConfigRef ref = new PlatformConfigRef(config("127.0.0.1:1"));
        Recorder subscriber = new Recorder();
        ConfigReloader reloader = new ConfigReloader("etcd://x/key", () -> true, ref, () -> List.of(subscriber), new SdkMetrics(registry, "test"), clock);

        reloader.onChange(config("127.0.0.1:3"));

        assertThat(ref.current().cluster("a").nameServer()).isEqualTo("127.0.0.1:1");
        assertThat(subscriber.applied).isEmpty();
        assertThat(reloads("rejected")).isEqualTo(1);
        assertThat(lastFailed()).isEqualTo(1);
        assertThat(reloader.lastRejection()).get().extracting(Throwable::getMessage).asString()
                .contains("etcd://x/key", "cluster a is in use");

        reloader.onChange(config("127.0.0.1:2"));
        assertThat(lastFailed()).as("a later good change clears the failure").isZero();
    }

    @Test
    void invalidDocumentFromTheSourceIsCountedAndKeepsTheOldSnapshot() throws Exception {
        PlatformConfigRef ref = new PlatformConfigRef(config("127.0.0.1:1"));
        ConfigReloader reloader = new ConfigReloader("test", () -> true, ref, List::of, new SdkMetrics(registry, "test"), clock);

        reloader.onRejected(new InvalidConfigurationException("topics.x.routes[0].weight (line 7): must be >= 0"));

        assertThat(ref.current().cluster("a").nameServer()).isEqualTo("127.0.0.1:1");
        assertThat(reloads("rejected")).isEqualTo(1);
        assertThat(lastFailed()).isEqualTo(1);
        assertThat(reloader.lastRejection().orElseThrow()).hasMessageContaining("line 7");
    }

    @Test
    void healthNamesTheSourceAndWhenTheSnapshotInForceTookEffectAndWhenAChangeWasRefused() throws Exception {
        PlatformConfigRef ref = new PlatformConfigRef(config("127.0.0.1:1"));
        ConfigReloader reloader = new ConfigReloader("file:/etc/lanemq/platform.yaml", () -> true, ref, List::of, new SdkMetrics(registry, "test"),
                clock);
        assertThat(reloader.health().location()).isEqualTo("file:/etc/lanemq/platform.yaml");
        assertThat(reloader.health().lastApplied()).as("the snapshot read at start took effect then").isEqualTo(FakeClock.START);
        assertThat(reloader.health().healthy()).isTrue();

        clock.advance(Duration.ofMinutes(1));
        reloader.onChange(config("127.0.0.1:2"));
        clock.advance(Duration.ofMinutes(1));
        reloader.onRejected(new InvalidConfigurationException("topics.x.routes[0].weight (line 7): must be >= 0"));

        assertThat(reloader.health().lastApplied()).as("a rejection leaves the last applied change in force")
                .isEqualTo(FakeClock.START.plus(Duration.ofMinutes(1)));
        assertThat(reloader.health().healthy()).isFalse();
        assertThat(reloader.health().lastRejection().orElseThrow().reason()).contains("line 7");
        assertThat(reloader.health().lastRejection().orElseThrow().at()).isEqualTo(FakeClock.START.plus(Duration.ofMinutes(2)));

        clock.advance(Duration.ofMinutes(1));
        reloader.onChange(config("127.0.0.1:4"));
        assertThat(reloader.health().lastRejection()).as("a later change that applies clears the rejection").isEmpty();
        assertThat(reloader.health().lastApplied()).isEqualTo(FakeClock.START.plus(Duration.ofMinutes(3)));
    }

    @Test
    void healthSaysWhetherTheSourceCanDeliverChangesNow() throws Exception {
        java.util.concurrent.atomic.AtomicBoolean connected = new java.util.concurrent.atomic.AtomicBoolean(true);
        ConfigReloader reloader = new ConfigReloader("etcd://127.0.0.1:2379/lanemq/platform", connected::get,
                new PlatformConfigRef(config("127.0.0.1:1")), List::of, new SdkMetrics(registry, "test"), clock);
        assertThat(reloader.health().connected()).isTrue();

        connected.set(false);

        assertThat(reloader.health().connected()).as("read from the source at each call").isFalse();
        assertThat(reloader.health().healthy()).as("a source out of reach is not healthy, though nothing was rejected").isFalse();
        assertThat(reloader.health().lastRejection()).isEmpty();
    }
}

package io.lanemq.core.internal.produce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.ClientHealth;
import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.api.MessagingException;
import io.lanemq.api.TransactionChecker;
import io.lanemq.api.TransactionResolution;
import io.lanemq.api.spi.BoundMessage;
import io.lanemq.api.spi.BoundProducer;
import io.lanemq.api.spi.BoundProducerSpec;
import io.lanemq.api.spi.TransactionCheckHandler;
import io.lanemq.config.ClusterConfig;
import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.PlatformConfigRef;
import io.lanemq.config.ProducerConfig;
import io.lanemq.config.TopicRoute;
import io.lanemq.core.internal.consume.attach.ClusterAttachments;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.support.Backoff;
import io.lanemq.support.FakeClock;
import io.lanemq.support.attach.AttachPolicy;
import io.lanemq.testkit.memory.MemoryBinding;
import io.lanemq.testkit.memory.MemoryCluster;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** One bound producer per cluster, re-pointed by configuration changes without cutting sends in flight. */
class ClusterProducersTest {
    private static final ProducerConfig SETTINGS = new ProducerConfig(Duration.ofMillis(100), 2048, 1, Duration.ofMillis(50));
    private static final ClusterConfig A = new ClusterConfig("cluster-a", "idc-a", "10.0.0.1:9876", Map.of());
    private static final ClusterConfig B = new ClusterConfig("cluster-b", "idc-b", "10.1.0.1:9876", Map.of());

    private final MemoryBinding binding = new MemoryBinding();
    private final PlatformConfigRef ref = new PlatformConfigRef(config(SETTINGS, A, B));

    @AfterEach
    void close() {
        binding.close();
    }

    @Test
    void startAllStartsOneProducerPerConfiguredClusterWithTheGroupsSettings() throws Exception {
        started(Optional.empty());

        for (String cluster : List.of("cluster-a", "cluster-b")) {
            assertThat(cluster(cluster).openProducers()).singleElement().satisfies(spec -> {
                assertThat(spec.producerGroup()).isEqualTo("group");
                assertThat(spec.sendTimeout()).isEqualTo(SETTINGS.sendTimeout());
                assertThat(spec.maxBodyBytes()).isEqualTo(2048);
                assertThat(spec.transactionCheckHandler()).as("no checker, no check-back handler").isEmpty();
            });
        }
    }

    @Test
    void aClusterThatCannotStartLeavesTheOthersAndIsStartedByItsFirstSend() throws Exception {
        cluster("cluster-b").failStarts();
        ClusterProducers producers = started(Optional.empty());

        assertThat(cluster("cluster-a").openProducers()).hasSize(1);
        assertThatThrownBy(() -> producers.get("cluster-b")).as("still down: the send there fails and moves on")
                .isInstanceOf(MessagingException.class).hasMessageContaining("cluster=cluster-b");
        cluster("cluster-b").recover();
        assertThat(producers.get("cluster-b")).isNotNull();
    }

    @Test
    void whenNoClusterCanStartTheProducerStillStartsAndTheFirstClusterBackIsStartedByASend() throws Exception {
        cluster("cluster-a").failStarts();
        cluster("cluster-b").refuseStarts("NO_PERMISSION: wrong keys");
        ClusterProducers producers = new ClusterProducers("group", Optional.empty(), ref, binding,
                new SdkMetrics(new SimpleMeterRegistry(), "test"));

        assertThat(producers.startAll()).as("each cluster that did not start, with why").hasSize(2)
                .hasEntrySatisfying("cluster-a", why -> assertThat(why).contains("injected start failure"))
                .hasEntrySatisfying("cluster-b", why -> assertThat(why).contains("NO_PERMISSION: wrong keys"));
        assertThat(cluster("cluster-a").openProducers()).isEmpty();
        cluster("cluster-a").recover();
        assertThat(producers.get("cluster-a")).isNotNull();
        producers.close();
    }

    @Test
    void whenEveryClusterRefusesTheProducersConfigurationTheStartFailsNamingEach() {
        cluster("cluster-a").refuseStarts("NO_PERMISSION: keys of another application");
        cluster("cluster-b").refuseStarts("NO_PERMISSION: wrong keys");
        ClusterProducers producers = new ClusterProducers("group", Optional.empty(), ref, binding,
                new SdkMetrics(new SimpleMeterRegistry(), "test"));

        assertThatThrownBy(producers::startAll).as("no waiting cures it: the producer could never send")
                .isInstanceOf(InvalidConfigurationException.class)
                .satisfies(e -> assertThat(e.getMessage() + " " + e.getSuppressed()[0].getMessage())
                        .contains("cluster-a", "keys of another application", "cluster-b", "wrong keys"));
        producers.close();
    }

    @Test
    void aClusterThatRefusedIsOutOfRotationInHealthAndTriedAgainOnlyOnceItsRefusedBackOffHasPassed() throws Exception {
        FakeClock clock = new FakeClock();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        SdkMetrics metrics = new SdkMetrics(registry, "test");
        // The default policy's steps without their jitter: 10 s after a first refusal, 20 s after a second.
        AttachPolicy policy = new AttachPolicy(Duration.ofSeconds(1), Backoff.exact(Duration.ofMillis(250), Duration.ofSeconds(2)),
                Backoff.exact(Duration.ofSeconds(10), Duration.ofMinutes(1)), 20, Optional.empty());
        ClusterAttachments attachments = new ClusterAttachments(policy, metrics, clock, clock);
        cluster("cluster-b").refuseStarts("NO_PERMISSION: the access key may not send to this cluster");
        ClusterProducers producers = new ClusterProducers("group", Optional.empty(), ref, binding, metrics, attachments, clock);

        assertThat(producers.startAll()).as("A started: the producer starts").containsOnlyKeys("cluster-b");
        assertThat(producers.outOfRotation()).as("sends leave B alone, and a failed one says why")
                .hasEntrySatisfying("cluster-b", why -> assertThat(why).contains("refused this producer", "NO_PERMISSION"));
        assertThat(attachments.health(List.of(new ClientHealth.Cluster("cluster-b", "idc-b", ClientHealth.ClusterState.UNKNOWN,
                Optional.empty())))).singleElement().satisfies(health -> {
                    assertThat(health.state()).isEqualTo(ClientHealth.ClusterState.DOWN);
                    assertThat(health.reason()).hasValueSatisfying(why -> assertThat(why)
                            .contains("producer group 'group'", "(refused)", "NO_PERMISSION"));
                });
        for (int i = 0; i < 5; i++) {
            assertThatThrownBy(() -> producers.get("cluster-b")).as("held: the binding is not asked again")
                    .isInstanceOf(InvalidConfigurationException.class).hasMessageContaining("NO_PERMISSION");
        }
        assertThat(cluster("cluster-b").startAttempts()).as("one attempt within the back-off").isEqualTo(1);
        assertThat(registry.get(SdkMetrics.PRODUCER_START_ATTEMPTS).tag(SdkMetrics.TAG_CLUSTER, "cluster-b")
                .tag(SdkMetrics.TAG_OUTCOME, "refused").counter().count()).isEqualTo(1);

        clock.advance(Duration.ofSeconds(9));
        assertThat(producers.outOfRotation()).as("9 s into a 10 s back-off").containsOnlyKeys("cluster-b");
        clock.advance(Duration.ofSeconds(1));
        assertThat(producers.outOfRotation()).as("the retry is due: B is back in rotation for one try").isEmpty();
        assertThatThrownBy(() -> producers.get("cluster-b")).isInstanceOf(InvalidConfigurationException.class);
        assertThat(cluster("cluster-b").startAttempts()).as("tried again once its back-off passed").isEqualTo(2);
        assertThat(producers.outOfRotation()).as("refused again: held for the next, longer step").containsOnlyKeys("cluster-b");

        cluster("cluster-b").recover();
        clock.advance(Duration.ofSeconds(20));
        assertThat(producers.get("cluster-b")).as("the keys were fixed: started on the next try").isNotNull();
        assertThat(producers.outOfRotation()).isEmpty();
        assertThat(attachments.reason("cluster-b", "producer group 'group'")).as("out of health").isEmpty();
        producers.close();
    }

    @Test
    void aChangedEndpointReplacesOnlyThatClustersProducerAndTheOldOneClosesAfterTheSendTimeout() throws Exception {
        ClusterProducers producers = started(Optional.empty());
        BoundProducer oldA = producers.get("cluster-a");
        BoundProducer oldB = producers.get("cluster-b");
        ClusterConfig movedB = new ClusterConfig("cluster-b", "idc-b", "10.1.0.2:9876", Map.of());

        PlatformConfig next = config(SETTINGS, A, movedB);
        producers.apply(ref.current(), next);
        ref.swap(next);

        assertThat(producers.get("cluster-a")).as("unchanged cluster").isSameAs(oldA);
        assertThat(producers.get("cluster-b")).isNotSameAs(oldB);
        assertThat(cluster("cluster-b").openProducers()).as("the old one still finishes its sends")
                .extracting(spec -> spec.cluster().nameServerAddress()).containsExactly("10.1.0.1:9876", "10.1.0.2:9876");
        await().atMost(Duration.ofSeconds(5)).until(() -> cluster("cluster-b").openProducers().size() == 1);
        assertThat(cluster("cluster-b").openProducers()).extracting(spec -> spec.cluster().nameServerAddress())
                .containsExactly("10.1.0.2:9876");
        assertThat(cluster("cluster-a").producerSpecs()).as("producers ever created on cluster-a").hasSize(1);
    }

    @Test
    void changedProducerSettingsReplaceEveryClustersProducer() throws Exception {
        ClusterProducers producers = started(Optional.empty());
        BoundProducer oldA = producers.get("cluster-a");

        producers.apply(ref.current(), config(new ProducerConfig(SETTINGS.sendTimeout(), 4096, 1, SETTINGS.failoverAfter()), A, B));

        assertThat(producers.get("cluster-a")).as("new sends use the new producer").isNotSameAs(oldA);
        for (String cluster : List.of("cluster-a", "cluster-b")) {
            assertThat(cluster(cluster).producerSpecs()).extracting(BoundProducerSpec::maxBodyBytes).containsExactly(2048, 4096);
        }
    }

    @Test
    void whenTheReplacementCannotStartTheOldProducerKeepsSending() throws Exception {
        ClusterProducers producers = started(Optional.empty());
        BoundProducer oldB = producers.get("cluster-b");
        cluster("cluster-b").failStarts();

        producers.apply(ref.current(), config(SETTINGS, A, new ClusterConfig("cluster-b", "idc-b", "10.1.0.2:9876", Map.of())));

        assertThat(producers.get("cluster-b")).isSameAs(oldB);
        assertThat(cluster("cluster-b").openProducers()).hasSize(1);
    }

    @Test
    void theCheckerIsToldTheLogicTopicAndAThrowingOrSilentCheckerMeansUnknown() throws Exception {
        List<String> logicTopics = new CopyOnWriteArrayList<>();
        TransactionChecker byKey = message -> {
            logicTopics.add(message.logicTopic());
            return switch (message.keys().get(0)) {
                case "commit" -> TransactionResolution.COMMIT;
                case "null" -> null;
                default -> throw new IllegalStateException("checker bug");
            };
        };
        started(Optional.of(byKey));
        TransactionCheckHandler handler = cluster("cluster-a").openProducers().get(0).transactionCheckHandler().orElseThrow();

        assertThat(handler.check(prepared("orders_a", "commit"))).isEqualTo(TransactionResolution.COMMIT);
        assertThat(handler.check(prepared("orders_a", "null"))).isEqualTo(TransactionResolution.UNKNOWN);
        assertThat(handler.check(prepared("orders_a", "throw"))).isEqualTo(TransactionResolution.UNKNOWN);
        assertThat(handler.check(prepared("gone_a", "commit"))).isEqualTo(TransactionResolution.COMMIT);
        assertThat(logicTopics).as("a physical topic no longer configured is named as it is")
                .containsExactly("orders", "orders", "orders", "gone_a");
    }

    @Test
    void closeClosesEveryClustersProducer() throws Exception {
        ClusterProducers producers = started(Optional.empty());

        producers.close();

        assertThat(cluster("cluster-a").openProducers()).isEmpty();
        assertThat(cluster("cluster-b").openProducers()).isEmpty();
    }

    /** Producers of group {@code group} on both clusters of {@link #ref}, started. */
    private ClusterProducers started(Optional<TransactionChecker> checker) throws MessagingException {
        ClusterProducers producers = new ClusterProducers("group", checker, ref, binding,
                new SdkMetrics(new SimpleMeterRegistry(), "test"));
        producers.startAll();
        return producers;
    }

    private static PlatformConfig config(ProducerConfig settings, ClusterConfig a, ClusterConfig b) {
        try {
            return PlatformConfig.builder().cluster(a).cluster(b).producer(settings)
                    .topic(new LogicTopicConfig("orders", List.of(new TopicRoute("cluster-a", "orders_a", 1),
                            new TopicRoute("cluster-b", "orders_b", 1)), Map.of())).build();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static BoundMessage prepared(String topic, String key) {
        return new BoundMessage("id-" + key, topic, new byte[] {1}, List.of(key), Optional.empty(), Map.of(), Optional.empty(),
                "broker", 0, 0, 1, 0);
    }

    private MemoryCluster cluster(String name) {
        return binding.cluster(name);
    }
}

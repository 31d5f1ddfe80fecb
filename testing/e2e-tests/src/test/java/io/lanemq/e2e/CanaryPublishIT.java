package io.lanemq.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.ClientOptions;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.config.Canary;
import io.lanemq.config.CanaryTarget;
import io.lanemq.config.etcd.EtcdClient;
import io.lanemq.config.store.ConfigStore;
import io.lanemq.config.store.PublishOutcome;
import io.lanemq.localstack.LocalPlatform;
import io.lanemq.localstack.SendStream;
import io.lanemq.testkit.RocketMqStack;
import io.lanemq.testkit.etcd.EtcdServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A canary on a real etcd and real brokers, judged by where three instances of one application send: the canary moves
 * the chosen instance's sends only, abandoning it brings them back, and promotion moves every instance.
 */
class CanaryPublishIT {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private static final int RATE = 200;

    /** One instance: its client, producer and paced sends. */
    private record Instance(String id, MessagingClient client, Producer producer, SendStream stream) implements AutoCloseable {
        @Override
        public void close() throws Exception {
            stream.close();
            producer.close();
            client.close();
        }
    }

    @Test
    void aCanaryMovesOnlyItsInstanceAbandonBringsItBackAndPromotionMovesEveryone() throws Exception {
        LocalPlatform platform = LocalPlatform.on(RocketMqStack.shared()).addTopic("canary-paid", 4, 100, 0,
                LocalPlatform.unique("canary"));
        String clusterB = platform.idcB().clusterName();
        String key = "/lanemq/platform/" + LocalPlatform.unique("canary");
        String allToA = platform.yaml();
        String allToB = platform.reweight("canary-paid", 0, 100).yaml();
        List<Instance> instances = new ArrayList<>();
        try (EtcdServer etcd = EtcdServer.started(); EtcdClient etcdClient = EtcdClient.builder(etcd.endpoint()).build()) {
            ConfigStore store = new ConfigStore(etcdClient, key);
            long base = store.publish(0, allToA, null, "olga", "base", "publish", "").revision();
            for (String id : List.of("paid-1", "paid-2", "paid-3")) {
                MessagingClient client = MessagingClient.create(ClientOptions.builder("canary-it").instanceId(id)
                        .configLocation("etcd://" + etcd.endpoint() + key).noConfigSnapshots().build());
                Producer producer = client.createProducer(ProducerOptions.defaults());
                instances.add(new Instance(id, client, producer, new SendStream(producer, "canary-paid", RATE)));
            }
            Instance chosen = instances.get(0);
            await().atMost(Duration.ofSeconds(20)).until(() -> instances.stream().allMatch(i -> i.stream().nowNanos() > SECOND));

            Canary canary = new Canary(base, new CanaryTarget(List.of(chosen.id()), List.of(), 0), allToB);
            long canaryAt = chosen.stream().nowNanos();
            PublishOutcome published = store.publishCanary(0, canary, "olga", "try idc-b on one instance", "");
            assertThat(published.written()).isTrue();
            untilAllTo(chosen, clusterB, 1.0);
            System.out.printf("canary: %s's first send to idc-b %d ms after the publish%n", chosen.id(),
                    firstSendTo(chosen, clusterB, canaryAt));

            long abandonAt = chosen.stream().nowNanos();
            assertThat(store.abandon(published.revision(), "olga", "back").written()).isTrue();
            untilAllTo(chosen, clusterB, 0.0);
            System.out.printf("abandon: %s's first send to idc-a %d ms after%n", chosen.id(),
                    firstSendTo(chosen, platform.idcA().clusterName(), abandonAt));

            PublishOutcome again = store.publishCanary(0, canary, "olga", "again", "");
            untilAllTo(chosen, clusterB, 1.0);
            List<Long> promoteAt = instances.stream().map(i -> i.stream().nowNanos()).toList();
            for (Instance other : instances.subList(1, 3)) {
                List<io.lanemq.localstack.SendOutcome> before = other.stream().startedBetween(0, promoteAt.get(instances.indexOf(other)));
                assertThat(SendStream.shareOf(before, clusterB)).as(other.id() + " sent to idc-a only through both canaries ("
                        + before.size() + " sends)").isZero();
            }
            assertThat(store.promote(again.revision(), "ivan", "fine").written()).isTrue();
            for (int i = 0; i < instances.size(); i++) {
                untilAllTo(instances.get(i), clusterB, 1.0);
                if (i > 0) {
                    System.out.printf("promote: %s's first send to idc-b %d ms after%n", instances.get(i).id(),
                            firstSendTo(instances.get(i), clusterB, promoteAt.get(i)));
                }
            }

            for (Instance instance : instances) {
                instance.stream().close();
                await().atMost(Duration.ofSeconds(30)).until(instance.stream()::settled);
                System.out.printf("%s: %d sends, success rate %.4f%n", instance.id(), instance.stream().all().size(),
                        SendStream.successRate(instance.stream().all()));
                assertThat(SendStream.successRate(instance.stream().all())).as(instance.id() + ": no send failed, "
                        + "none left in flight").isEqualTo(1.0);
            }
        } finally {
            for (Instance instance : instances) {
                instance.close();
            }
        }
    }

    /** Milliseconds from {@code fromNanos} to the start of the instance's first send to {@code cluster} after it. */
    private static long firstSendTo(Instance instance, String cluster, long fromNanos) {
        return instance.stream().startedBetween(fromNanos, Long.MAX_VALUE).stream().filter(o -> cluster.equals(o.cluster()))
                .mapToLong(io.lanemq.localstack.SendOutcome::startNanos).min().orElseThrow() / 1_000_000 - fromNanos / 1_000_000;
    }

    /** Waits until the last half second of the instance's sends went to cluster B at {@code share}; returns when. */
    private static long untilAllTo(Instance instance, String clusterB, double share) {
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50)).until(() -> {
            long now = instance.stream().nowNanos();
            List<io.lanemq.localstack.SendOutcome> recent = instance.stream().startedBetween(now - SECOND / 2, now);
            return recent.size() >= RATE / 4 && SendStream.shareOf(recent, clusterB) == share;
        });
        return instance.stream().nowNanos();
    }
}

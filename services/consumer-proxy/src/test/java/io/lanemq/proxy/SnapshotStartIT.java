package io.lanemq.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.grpc.Status;
import io.lanemq.config.ConfigSnapshotStore;
import io.lanemq.api.ClientHealth;
import io.lanemq.core.client.ConfigStaleness;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.localstack.LocalPlatform;
import io.lanemq.testkit.etcd.EtcdServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The proxy started while etcd is unreachable, over real brokers and a real etcd: it serves on the local snapshot the
 * previous proxy wrote, says so on its health line and meter, and follows the current document once etcd is back.
 */
class SnapshotStartIT {
    private static final String KEY = "/lanemq/platform/proxy-snapshot";
    /** The watch's reconnect backoff is capped at 2 s. */
    private static final Duration CATCH_UP = Duration.ofSeconds(5);

    @TempDir
    Path snapshots;

    private String previousDirectory;

    @BeforeEach
    void snapshotDirectory() {
        // The services take their snapshot directory from the deployment (LANEMQ_CONFIG_SNAPSHOT_DIR in the manifests).
        previousDirectory = System.setProperty(ConfigSnapshotStore.DIRECTORY_PROPERTY, snapshots.toString());
    }

    @AfterEach
    void restoreDirectory() {
        if (previousDirectory == null) {
            System.clearProperty(ConfigSnapshotStore.DIRECTORY_PROPERTY);
        } else {
            System.setProperty(ConfigSnapshotStore.DIRECTORY_PROPERTY, previousDirectory);
        }
    }

    @Test
    void startedWhileEtcdIsDownItServesOnTheSnapshotAndFollowsEtcdWhenItIsBack() throws Exception {
        String group = LocalPlatform.unique("proxy-snap");
        LocalPlatform platform = ProxyHarness.platform().addTopic("proxy-snap", 2, 50, 50, group);
        try (EtcdServer etcd = EtcdServer.started()) {
            String location = "etcd://" + etcd.endpoint() + KEY;
            long r1 = etcd.put(KEY, platform.yaml());
            try (ConsumerProxyServer first = ConsumerProxyServer.start(ProxyHarness.config(location, b -> b))) {
                assertThat(first.configuration().stale()).isEmpty();
            }

            etcd.stop();
            long startNanos = System.nanoTime();
            try (ConsumerProxyServer proxy = ConsumerProxyServer.start(ProxyHarness.config(location, b -> b))) {
                long startMillis = (System.nanoTime() - startNanos) / 1_000_000;
                ClientHealth.Configuration stale = proxy.configuration();
                assertThat(stale.stale()).as("on the snapshot of revision " + r1).hasValueSatisfying(s -> assertThat(s.revision()).isEqualTo(r1));
                assertThat(ConfigStaleness.describe(stale)).contains("stale since").contains("revision " + r1);
                assertThat(proxy.meters().get(SdkMetrics.CONFIG_STALE).gauge().value()).isEqualTo(1);

                TestConsumer before = ProxyHarness.consumer(proxy, "before", d -> true)
                        .subscribe(ProxyHarness.APPLICATION, group, "proxy-snap", 32);
                List<String> sent = ProxyHarness.send(platform, "proxy-snap", 20, i -> null);
                long firstNanos = System.nanoTime();
                await().atMost(Duration.ofSeconds(60)).until(() -> before.acked.size() == 20);
                System.out.printf("proxy on the snapshot: started in %d ms, 20 messages delivered and acked %d ms after the send%n",
                        startMillis, (System.nanoTime() - firstNanos) / 1_000_000);
                assertThat(before.acked).extracting(d -> d.getMessageId()).containsExactlyInAnyOrderElementsOf(sent);

                etcd.start();
                long backNanos = System.nanoTime();
                await().atMost(CATCH_UP).until(() -> proxy.configuration().stale().isEmpty());
                long freshMillis = (System.nanoTime() - backNanos) / 1_000_000;
                assertThat(proxy.meters().get(SdkMetrics.CONFIG_STALE).gauge().value()).isZero();

                long r2 = etcd.put(KEY, platform.moveTopic("proxy-snap", 2).yaml());
                await().atMost(Duration.ofSeconds(30)).until(() -> before.ended.get() != null);
                assertThat(before.ended.get().getCode()).as("the group restarts on the change published").isEqualTo(Status.Code.UNAVAILABLE);
                assertThat(proxy.meters().get(SdkMetrics.CONFIG_REVISION).gauge().value()).isEqualTo(r2);
                // Kept once the changed groups have restarted, after their streams ended.
                await().atMost(Duration.ofSeconds(10)).until(() -> new ConfigSnapshotStore(snapshots).read(location, KEY)
                        .orElseThrow().revision() == r2);
                before.close();
                System.out.printf("proxy on the snapshot: current document applied %d ms after etcd was back%n", freshMillis);
            }
        } finally {
            platform.close();
        }
    }
}

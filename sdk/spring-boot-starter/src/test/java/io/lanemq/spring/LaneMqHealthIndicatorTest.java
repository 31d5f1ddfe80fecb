package io.lanemq.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.BatchMessageListener;
import io.lanemq.api.Batching;
import io.lanemq.api.ClientHealth;
import io.lanemq.api.ClientHealth.ClusterState;
import io.lanemq.api.Consumer;
import io.lanemq.api.MessageListener;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.api.Subscription;
import io.lanemq.config.PlatformConfig;
import io.lanemq.core.client.CoreMessagingClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The {@code lanemq} health indicator: how the client's health becomes Actuator's status and details (on clients that
 * report a given health), when the auto-configuration registers it, and on a real client of the auto-configuration a
 * rejected reload of its watched file. The clusters' name servers are unreachable, as in the other starter tests:
 * nothing here needs a broker. {@link LaneMqHealthEndpointTest} goes through the HTTP endpoint.
 */
class LaneMqHealthIndicatorTest {
    private static final Instant LOADED = Instant.parse("2030-01-01T00:00:00Z");
    private static final ClientHealth.Configuration GOOD_CONFIGURATION = new ClientHealth.Configuration(
            "file:/etc/lanemq/platform.yaml", LOADED, Optional.empty(), true);

    @TempDir
    Path directory;
    private Path config;
    private ApplicationContextRunner runner;

    @BeforeEach
    void writePlatform() throws IOException {
        config = Files.writeString(directory.resolve("platform.yaml"), LaneMqAutoConfigurationTest.PLATFORM);
        runner = new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(LaneMqAutoConfiguration.class, LaneMqHealthAutoConfiguration.class))
                .withPropertyValues("lanemq.application-name=health-test", "lanemq.config-location=file:" + config,
                        "lanemq.producer.enabled=false");
    }

    private static ClientHealth.Cluster cluster(String name, ClusterState state) {
        return new ClientHealth.Cluster(name, "idc-" + name.substring(name.length() - 1), state,
                state == ClusterState.UP ? Optional.empty() : Optional.of(state == ClusterState.DOWN
                        ? "out of the send rotation of logic topic order-paid" : "not judged"));
    }

    private static Health healthOf(ClientHealth.Configuration configuration, ClientHealth.Cluster... clusters) {
        return new LaneMqHealthIndicator(new FixedHealthClient(new ClientHealth(configuration, List.of(clusters)))).health();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> detail(Health health, String... path) {
        Map<String, Object> map = health.getDetails();
        for (String key : path) {
            assertThat(map).as("details at " + String.join(".", path)).containsKey(key);
            map = (Map<String, Object>) map.get(key);
        }
        return map;
    }

    @Test
    void everyClusterUpOnAHealthyConfigurationIsUpWithBothInTheDetails() {
        Health health = healthOf(GOOD_CONFIGURATION, cluster("cluster-a", ClusterState.UP), cluster("cluster-b", ClusterState.UP));

        assertThat(health.getStatus()).isEqualTo(Status.UP);
        assertThat(detail(health, "configuration")).containsEntry("location", "file:/etc/lanemq/platform.yaml")
                .containsEntry("lastApplied", "2030-01-01T00:00:00Z").containsEntry("lastReloadRejected", false)
                .doesNotContainKey("rejectionReason");
        assertThat(detail(health, "clusters")).containsOnlyKeys("cluster-a", "cluster-b");
        assertThat(detail(health, "clusters", "cluster-b")).isEqualTo(Map.of("idc", "idc-b", "state", "UP"));
    }

    @Test
    void aRejectedReloadStaysUpAndShowsTheReasonAndWhen() {
        ClientHealth.Configuration rejected = new ClientHealth.Configuration(GOOD_CONFIGURATION.location(), LOADED,
                Optional.of(new ClientHealth.Rejection("topics.order-paid.routes[1].cluster (line 8): unknown cluster 'cluster-z'",
                        LOADED.plusSeconds(90))), true);

        Health health = healthOf(rejected, cluster("cluster-a", ClusterState.UP), cluster("cluster-b", ClusterState.UP));

        assertThat(health.getStatus()).as("the client runs on its last good configuration: not taken out of service")
                .isEqualTo(Status.UP);
        assertThat(detail(health, "configuration")).containsEntry("lastReloadRejected", true)
                .containsEntry("rejectionReason", "topics.order-paid.routes[1].cluster (line 8): unknown cluster 'cluster-z'")
                .containsEntry("rejectedAt", "2030-01-01T00:01:30Z").containsEntry("lastApplied", "2030-01-01T00:00:00Z");
    }

    @Test
    void aConfigCentreOutOfReachStaysUpAndSaysSo() {
        ClientHealth.Configuration away = new ClientHealth.Configuration("etcd://10.0.0.7:2379/lanemq/platform", LOADED,
                Optional.empty(), false);

        Health health = healthOf(away, cluster("cluster-a", ClusterState.UP), cluster("cluster-b", ClusterState.UP));

        assertThat(health.getStatus()).as("the client keeps its last configuration and reconnects by itself").isEqualTo(Status.UP);
        assertThat(detail(health, "configuration")).containsEntry("connected", false).containsEntry("lastReloadRejected", false);
        assertThat(detail(healthOf(GOOD_CONFIGURATION, cluster("cluster-a", ClusterState.UP)), "configuration"))
                .containsEntry("connected", true);
    }

    @Test
    void oneClusterDownIsStillUpWithTheDownClusterAndItsReasonInTheDetails() {
        Health health = healthOf(GOOD_CONFIGURATION, cluster("cluster-a", ClusterState.UP), cluster("cluster-b", ClusterState.DOWN));

        assertThat(health.getStatus()).as("sends fail over to cluster-a").isEqualTo(Status.UP);
        assertThat(detail(health, "clusters", "cluster-b")).containsEntry("state", "DOWN")
                .containsEntry("reason", "out of the send rotation of logic topic order-paid");
    }

    @Test
    void isDownWhenNoClusterIsUpAndOneIsDown() {
        assertThat(healthOf(GOOD_CONFIGURATION, cluster("cluster-a", ClusterState.DOWN), cluster("cluster-b", ClusterState.DOWN))
                .getStatus()).isEqualTo(Status.DOWN);
        assertThat(healthOf(GOOD_CONFIGURATION, cluster("cluster-a", ClusterState.DOWN), cluster("cluster-b", ClusterState.UNKNOWN))
                .getStatus()).as("the only cluster sends reached is down").isEqualTo(Status.DOWN);
    }

    @Test
    void clustersNoSendHasJudgedYetAreNotReasonToGoDown() {
        Health health = healthOf(GOOD_CONFIGURATION, cluster("cluster-a", ClusterState.UNKNOWN),
                cluster("cluster-b", ClusterState.UNKNOWN));

        assertThat(health.getStatus()).as("an application that only consumes").isEqualTo(Status.UP);
        assertThat(detail(health, "clusters", "cluster-a")).containsEntry("state", "UNKNOWN").containsEntry("reason", "not judged");
    }

    @Test
    void aClientThatFailsToAnswerMakesTheIndicatorDownWithTheError() {
        Health health = new LaneMqHealthIndicator(new FixedHealthClient(null)).health();

        assertThat(health.getStatus()).isEqualTo(Status.DOWN);
        assertThat(health.getDetails()).containsKey("error");
    }

    @Test
    void isRegisteredAsLanemqOverTheStartersClient() {
        runner.run(context -> {
            assertThat(context).hasNotFailed().hasBean("lanemqHealthIndicator");
            Health health = context.getBean("lanemqHealthIndicator", HealthIndicator.class).health();
            assertThat(health.getStatus()).as("nothing sent yet: nothing judged, nothing down").isEqualTo(Status.UP);
            assertThat(detail(health, "configuration")).containsEntry("location", "file:" + config.toAbsolutePath());
            assertThat(detail(health, "clusters", "cluster-a")).containsEntry("state", "UNKNOWN");
        });
    }

    @Test
    void isLeftOutWhenTurnedOffWithoutActuatorOrWithoutTheClient() {
        runner.withPropertyValues("management.health.lanemq.enabled=false")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean("lanemqHealthIndicator"));
        runner.withPropertyValues("management.health.defaults.enabled=false")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean("lanemqHealthIndicator"));
        runner.withClassLoader(new FilteredClassLoader("org.springframework.boot.actuate"))
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(MessagingClient.class)
                        .doesNotHaveBean("lanemqHealthIndicator"));
        runner.withPropertyValues("lanemq.enabled=false")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean("lanemqHealthIndicator"));
    }

    @Test
    void anApplicationsOwnIndicatorOfThatNameReplacesIt() {
        HealthIndicator own = () -> Health.outOfService().build();
        runner.withBean("lanemqHealthIndicator", HealthIndicator.class, () -> own)
                .run(context -> assertThat(context.getBean("lanemqHealthIndicator")).isSameAs(own));
    }

    @Test
    void aReloadRejectedByTheWatchedFileShowsWithItsReasonWhileThePreviousConfigurationStaysInForce() {
        runner.run(context -> {
            HealthIndicator indicator = context.getBean("lanemqHealthIndicator", HealthIndicator.class);
            CoreMessagingClient client = context.getBean(CoreMessagingClient.class);
            PlatformConfig before = client.config().current();

            Files.writeString(config, LaneMqAutoConfigurationTest.PLATFORM.replace("{ cluster: cluster-b,", "{ cluster: cluster-z,"));
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> Boolean.TRUE.equals(detail(indicator.health(), "configuration").get("lastReloadRejected")));

            Health health = indicator.health();
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(detail(health, "configuration").get("rejectionReason")).asString()
                    .contains("topics.order-paid.routes[1].cluster (line 8)").contains("cluster-z");
            assertThat(client.config().current()).as("the configuration read at start stays in force").isSameAs(before);
        });
    }

    @Test
    void detailsHoldNoClusterAddressNorCredentialReference() throws IOException {
        Files.writeString(config, """
                clusters:
                  cluster-a:
                    idc: idc-a
                    nameServer: "127.0.0.1:1"
                    credentials: { accessKeyEnv: LANEMQ_HEALTH_TEST_ACCESS, secretKeyEnv: LANEMQ_HEALTH_TEST_SECRET }
                  cluster-b:
                    idc: idc-b
                    nameServer: "127.0.0.1:1"
                    credentials: { file: /run/secrets/lanemq-health-test.properties }
                topics:
                  order-paid:
                    routes:
                      - { cluster: cluster-a, physicalTopic: order_paid, weight: 50 }
                      - { cluster: cluster-b, physicalTopic: order_paid, weight: 50 }
                """);
        runner.run(context -> {
            String details = context.getBean("lanemqHealthIndicator", HealthIndicator.class).health().getDetails().toString();
            assertThat(details).contains("cluster-a", "cluster-b")
                    .doesNotContain("127.0.0.1", "LANEMQ_HEALTH_TEST", "lanemq-health-test.properties");
        });
    }

    /** A client that only reports a given health; {@code null} makes {@link #health()} fail. */
    private record FixedHealthClient(ClientHealth fixed) implements MessagingClient {
        @Override
        public ClientHealth health() {
            if (fixed == null) {
                throw new IllegalStateException("health unavailable");
            }
            return fixed;
        }

        @Override
        public Producer createProducer(ProducerOptions options) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Consumer subscribe(Subscription subscription, MessageListener listener) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Consumer subscribe(Subscription subscription, Batching batching, BatchMessageListener listener) {
            throw new UnsupportedOperationException();
        }

        @Override
        public io.lanemq.api.SeekResult seek(String logicTopic, String consumerGroup, java.util.Optional<java.time.Instant> to) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void close() {
        }
    }
}

package io.lanemq.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lanemq.api.ClientHealth.Cluster;
import io.lanemq.api.ClientHealth.ClusterState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ClientHealthTest {
    private static final Instant LOADED = Instant.parse("2030-01-01T00:00:00Z");
    private static final ClientHealth.Configuration GOOD = new ClientHealth.Configuration("file:/etc/lanemq/platform.yaml",
            LOADED, Optional.empty(), true);

    @Test
    void isASnapshotTheCallerCannotChangeAfterwards() {
        List<Cluster> clusters = new ArrayList<>(List.of(new Cluster("cluster-a", "idc-a", ClusterState.UP, Optional.empty())));
        ClientHealth health = new ClientHealth(GOOD, clusters);

        clusters.add(new Cluster("cluster-b", "idc-b", ClusterState.UNKNOWN, Optional.of("not judged")));

        assertThat(health.clusters()).as("copied at construction").hasSize(1);
        assertThatThrownBy(() -> health.clusters().clear()).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void findsAClusterByName() {
        ClientHealth health = new ClientHealth(GOOD, List.of(new Cluster("cluster-a", "idc-a", ClusterState.UP, Optional.empty()),
                new Cluster("cluster-b", "idc-b", ClusterState.DOWN, Optional.of("out of the send rotation"))));

        assertThat(health.cluster("cluster-b").map(Cluster::state)).contains(ClusterState.DOWN);
        assertThat(health.cluster("cluster-z")).isEmpty();
    }

    @Test
    void theConfigurationIsHealthyUntilAChangeIsRejected() {
        ClientHealth.Rejection rejection = new ClientHealth.Rejection("topics.x.routes[0].weight (line 7): must be >= 0",
                LOADED.plusSeconds(60));

        assertThat(GOOD.healthy()).isTrue();
        assertThat(new ClientHealth.Configuration(GOOD.location(), LOADED, Optional.of(rejection), true).healthy()).isFalse();
        assertThat(new ClientHealth.Configuration(GOOD.location(), LOADED, Optional.empty(), false).healthy())
                .as("a source out of reach").isFalse();
    }

    @Test
    void refusesMissingPartsNamingThem() {
        assertThatThrownBy(() -> new ClientHealth.Configuration(null, LOADED, Optional.empty(), true)).hasMessage("location");
        assertThatThrownBy(() -> new Cluster("cluster-a", "idc-a", null, Optional.empty())).hasMessage("state");
        assertThatThrownBy(() -> new ClientHealth(null, List.of())).hasMessage("configuration");
    }
}

package io.lanemq.spring;

import io.lanemq.api.ClientHealth;
import io.lanemq.api.ClientHealth.ClusterState;
import io.lanemq.api.MessagingClient;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.Status;

/**
 * The {@code lanemq} health: {@link MessagingClient#health()} in Actuator's terms.
 *
 * <p>DOWN only when at least one cluster is down and none is up: every cluster this client's sends have reached is out
 * of rotation, so a send can only try a cluster already known to fail. Everything short of that is UP with the trouble in the details, because the SDK
 * works around it: one cluster down is what failover is for; a cluster not judged yet (an application that only
 * consumes) is not known to be unreachable; a client started on its local configuration snapshot while etcd was
 * unreachable serves on it (the details say {@code stale}, since when and at which revision); and a rejected reload
 * leaves the client running on its last good configuration. That one is deliberately neither DOWN nor OUT_OF_SERVICE (both answered 503): a bad document is
 * published to every instance at once, and a status that takes instances out of a load balancer would turn one bad
 * publication into an outage of the whole application. Nor is it a custom status such as DEGRADED: Actuator's default
 * aggregation leaves out a status missing from {@code management.endpoint.health.status.order}, so it would say no
 * more than the details do unless every application configured it. The metric
 * {@code lanemq.config.last.reload.failed} is what alerts on it.
 *
 * <p>Details hold names, states, times and reasons, and the configuration's location as the SDK logs it (a path, or
 * etcd endpoints and key, never a password): no cluster address, credential reference or secret.
 */
final class LaneMqHealthIndicator extends AbstractHealthIndicator {
    private final MessagingClient client;

    LaneMqHealthIndicator(MessagingClient client) {
        super("LaneMQ health check failed");
        this.client = client;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        ClientHealth health = client.health();
        boolean anyUp = health.clusters().stream().anyMatch(cluster -> cluster.state() == ClusterState.UP);
        boolean anyDown = health.clusters().stream().anyMatch(cluster -> cluster.state() == ClusterState.DOWN);
        builder.status(anyDown && !anyUp ? Status.DOWN : Status.UP)
                .withDetail("configuration", configuration(health.configuration()))
                .withDetail("clusters", clusters(health));
    }

    private static Map<String, Object> configuration(ClientHealth.Configuration configuration) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("location", configuration.location());
        // A config centre out of reach: changes wait until the client reconnects, on the last configuration it had.
        details.put("connected", configuration.connected());
        // Instants as ISO-8601 text: the same on every JSON mapper the endpoint may use.
        details.put("lastApplied", configuration.lastApplied().toString());
        // Started on the local snapshot while etcd was unreachable: still serving, on a document that may be old.
        details.put("stale", configuration.stale().isPresent());
        configuration.stale().ifPresent(stale -> {
            details.put("staleSince", stale.since().toString());
            details.put("staleRevision", stale.revision());
        });
        details.put("lastReloadRejected", configuration.lastRejection().isPresent());
        configuration.lastRejection().ifPresent(rejection -> {
            details.put("rejectionReason", rejection.reason());
            details.put("rejectedAt", rejection.at().toString());
        });
        return details;
    }

    private static Map<String, Object> clusters(ClientHealth health) {
        Map<String, Object> clusters = new LinkedHashMap<>();
        for (ClientHealth.Cluster cluster : health.clusters()) {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("idc", cluster.idc());
            details.put("state", cluster.state().name());
            cluster.reason().ifPresent(reason -> details.put("reason", reason));
            clusters.put(cluster.name(), details);
        }
        return clusters;
    }
}

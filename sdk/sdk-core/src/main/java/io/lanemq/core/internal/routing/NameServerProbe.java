package io.lanemq.core.internal.routing;

import io.lanemq.config.ClusterConfig;
import io.lanemq.config.PlatformConfigRef;
import io.lanemq.failover.HealthChecker;
import io.lanemq.api.MessagingException;
import io.lanemq.config.PlatformConfig;
import io.lanemq.support.TcpReach;
import io.lanemq.support.Ticker;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Decides whether a cluster that went down may get trial traffic again: one of its name servers
 * accepts a TCP connection. A name server is the first thing to come back with an IDC, and the
 * trial sends that follow test the brokers for real (a failed trial is retried elsewhere).
 */
public final class NameServerProbe implements HealthChecker<String> {
    private final PlatformConfigRef config;

    NameServerProbe(PlatformConfigRef config) {
        this.config = config;
    }

    @Override
    public boolean isHealthy(String cluster) {
        ClusterConfig settings = config.current().clusters().get(cluster);
        return settings != null && unreachable(settings).isEmpty();
    }

    /** Why none of the cluster's name servers accepts a connection; empty when one does. */
    static Optional<String> unreachable(ClusterConfig cluster) {
        return TcpReach.noneAccepts(cluster.nameServer(), TcpReach.NAME_SERVER_CONNECT_TIMEOUT)
                .map(failures -> "no name server accepted a connection (" + failures + ")");
    }

    /**
     * Waits until one cluster of {@code config} has a name server that accepts a connection, for a client whose
     * application prefers a failed start to one on no cluster.
     *
     * @throws MessagingException none did within {@code within}; the message names each cluster and why
     */
    public static void requireAnyCluster(PlatformConfig config, Duration within, Ticker ticker) throws MessagingException {
        long deadline = ticker.read() + within.toNanos();
        Map<String, String> why = new TreeMap<>();
        do {
            for (ClusterConfig cluster : config.clusters().values()) {
                Optional<String> failure = unreachable(cluster);
                if (failure.isEmpty()) {
                    return;
                }
                why.put(cluster.name(), failure.get());
            }
        } while (ticker.read() - deadline < 0 && pause());
        throw new MessagingException("no cluster answered within " + within.toMillis() + " ms (required by "
                + "requireClusterWithin): " + why, null, null);
    }

    /** A short pause between rounds of connects; false when interrupted. */
    private static boolean pause() {
        try {
            Thread.sleep(100);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}

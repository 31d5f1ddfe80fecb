package io.lanemq.core.internal.routing;

import io.lanemq.config.ClusterConfig;
import io.lanemq.config.PlatformConfigRef;
import io.lanemq.failover.HealthChecker;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * Decides whether a cluster that went down may get trial traffic again: one of its name servers
 * accepts a TCP connection. A name server is the first thing to come back with an IDC, and the
 * trial sends that follow test the brokers for real (a failed trial is retried elsewhere).
 */
final class NameServerProbe implements HealthChecker<String> {
    private static final int CONNECT_TIMEOUT_MS = 500;

    private final PlatformConfigRef config;

    NameServerProbe(PlatformConfigRef config) {
        this.config = config;
    }

    @Override
    public boolean isHealthy(String cluster) {
        ClusterConfig settings = config.current().clusters().get(cluster);
        if (settings == null) {
            return false;
        }
        for (String address : settings.nameServer().split(";")) {
            int colon = address.lastIndexOf(':');
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(address.substring(0, colon), Integer.parseInt(address.substring(colon + 1))),
                        CONNECT_TIMEOUT_MS);
                return true;
            } catch (IOException | RuntimeException unreachable) {
                // try the next name server of the cluster
            }
        }
        return false;
    }
}

package io.lanemq.testkit;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Chooses listen ports for the children.
 *
 * <p>Ports are drawn below the kernel's ephemeral range: a node keeps its ports across restarts, and a port in
 * the ephemeral range could meanwhile be taken as the local port of some outgoing connection. Ports handed out
 * in this JVM are remembered so two nodes never get overlapping ranges before their children bind them. The
 * probe binds the wildcard address because a broker's HA port listens on all interfaces.
 */
final class PortAllocator {

    private static final int LOWEST = 15_000;
    private static final int ATTEMPTS = 500;
    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

    private PortAllocator() {
    }

    static int nameServerPort() {
        return allocate(0, 0);
    }

    /** A broker listens on port, port - 2 (VIP channel) and port + 1 (HA): all must be free. */
    static int brokerPort() {
        return allocate(2, 1);
    }

    private static int allocate(int below, int above) {
        int highest = ephemeralLow() - 1 - above;
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            int port = random.nextInt(LOWEST + below, highest + 1);
            if (reserve(port - below, port + above)) {
                return port;
            }
        }
        throw new TestkitException("no free port range found below the ephemeral ports after " + ATTEMPTS
            + " attempts");
    }

    private static synchronized boolean reserve(int from, int to) {
        for (int p = from; p <= to; p++) {
            if (HANDED_OUT.contains(p) || !isFree(p)) {
                return false;
            }
        }
        for (int p = from; p <= to; p++) {
            HANDED_OUT.add(p);
        }
        return true;
    }

    private static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int ephemeralLow() {
        try {
            String range = Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).trim();
            int low = Integer.parseInt(range.split("\\s+")[0]);
            return low > LOWEST + 1000 ? low : 32_768;
        } catch (IOException | RuntimeException e) {
            return 32_768;
        }
    }
}

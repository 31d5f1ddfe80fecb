package io.lanemq.testkit.net;

import io.lanemq.testkit.TestkitException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Whether this JVM runs in a network namespace of its own, apart from the machine's.
 *
 * <p>Network faults are nftables rules, and a rule in the machine's own namespace would cut the machine's real
 * traffic. So the fault tool acts only in a namespace whose one network interface is loopback: every machine's
 * own namespace has a real interface too. (Comparing with process 1's namespace would be the obvious check, but a
 * JVM may not read {@code /proc/1/ns/net} even as root: AccessDeniedException here.) {@code bin/netns/bin/java} starts a JVM in a new namespace with only
 * loopback up; the kernel removes that namespace, with every rule in it, when its last process exits, so not
 * even a {@code kill -9} of the test leaves a rule behind. Child JVMs (the testkit's brokers) inherit it.
 */
public final class PrivateNetwork {
    private static final Path OWN = Path.of("/proc/self/ns/net");
    /** This namespace's interfaces, one per line after two header lines ({@code lo: 1234 ...}). */
    private static final Path DEVICES = Path.of("/proc/self/net/dev");

    private PrivateNetwork() {
    }

    /** The namespace's identity, such as {@code net:[4026532177]}. */
    public static String namespace() {
        return read(OWN);
    }

    /** True when this JVM's network namespace has no interface but loopback. */
    public static boolean isPrivate() {
        return interfaces().equals(List.of("lo"));
    }

    /** The network interfaces of this JVM's namespace. */
    public static List<String> interfaces() {
        try {
            return Files.readAllLines(DEVICES).stream().skip(2).map(line -> line.substring(0, line.indexOf(':')).strip())
                    .toList();
        } catch (IOException | RuntimeException e) {
            throw new TestkitException("cannot list the network interfaces in " + DEVICES + ": " + e.getMessage(), e);
        }
    }

    /** Fails unless this JVM runs in a private network namespace, saying how to get one. */
    public static void require() {
        if (!isPrivate()) {
            throw new TestkitException("refusing to inject network faults: this JVM shares the machine's network namespace ("
                    + read(OWN) + ", interfaces " + interfaces() + "), and its rules would cut the machine's own traffic. Run it through bin/netns/bin/java "
                    + "(e2e-tests' 'network-faults' failsafe execution does), which starts java in a namespace of its own");
        }
    }

    private static String read(Path link) {
        try {
            return Files.readSymbolicLink(link).toString();
        } catch (IOException e) {
            throw new TestkitException("cannot read the network namespace of " + link + ": " + e.getMessage(), e);
        }
    }
}

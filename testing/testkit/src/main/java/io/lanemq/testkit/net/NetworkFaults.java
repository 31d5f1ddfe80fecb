package io.lanemq.testkit.net;

import io.lanemq.testkit.TestkitException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Silent network faults on loopback TCP ports, as nftables rules in this JVM's private network namespace.
 *
 * <p>A fault drops packets in the {@code input} hook, after they left the sender: the sending socket sees no
 * error, no reset and no refusal, exactly as when a link or a switch of a data centre dies (a rule in the
 * {@code output} hook could fail the sender's write instead). Dropping the packets <em>to</em> a set of ports
 * cuts requests and connection attempts; dropping the packets <em>from</em> them cuts the answers; both is a
 * partition. Loss drops a random share of the packets ({@code numgen random}).
 *
 * <pre>{@code
 * try (NetworkFaults faults = NetworkFaults.open()) {           // fails outside a private namespace
 *     NetworkFaults.Fault partition = faults.drop("idc-b", platform.idcB().ports(), Direction.BOTH);
 *     ...
 *     partition.heal();
 *     assertThat(partition.droppedPackets()).isPositive();       // the fault really cut traffic
 * }
 * }</pre>
 *
 * <p>Every rule carries a counter, so a test can prove that its fault dropped packets, and cannot pass
 * because the fault missed. {@link #close()} deletes the whole table; the namespace itself goes with its
 * last process. A missing {@code nft} fails {@link #open()} naming the package, never skips.
 */
public final class NetworkFaults implements AutoCloseable {
    static final String TABLE = "lanemq_faults";
    private static final String CHAIN = "input";
    private static final Pattern HANDLE = Pattern.compile("# handle (\\d+)");
    private static final Pattern COUNTED = Pattern.compile("counter packets (\\d+) bytes \\d+ .*# handle (\\d+)");
    private static final long NFT_TIMEOUT_SECONDS = 20;

    /** Which packets of the given ports a fault drops. */
    public enum Direction {
        /** Packets sent to the ports: requests and connection attempts vanish. */
        TO,
        /** Packets sent from the ports: answers vanish, requests still arrive. */
        FROM,
        /** Both: a partition. */
        BOTH
    }

    private final List<Fault> active = new ArrayList<>();
    private boolean closed;

    private NetworkFaults() {
    }

    /** Creates the fault table in this JVM's private network namespace. */
    public static NetworkFaults open() {
        PrivateNetwork.require();
        nft(List.of("add", "table", "inet", TABLE));
        nft(List.of("add", "chain", "inet", TABLE, CHAIN,
                "{ type filter hook input priority 0; policy accept; }"));
        return new NetworkFaults();
    }

    /** Drops every packet of {@code ports} in {@code direction}, silently, until healed. */
    public synchronized Fault drop(String name, Collection<Integer> ports, Direction direction) {
        return add(name, ports, direction, "", "drop " + direction + " " + ports);
    }

    /** Drops {@code percent}% of the packets of {@code ports} in {@code direction}, at random, until healed. */
    public synchronized Fault loss(String name, Collection<Integer> ports, int percent, Direction direction) {
        if (percent < 1 || percent > 100) {
            throw new IllegalArgumentException("loss must be 1-100%, was " + percent);
        }
        return add(name, ports, direction, "numgen random mod 100 < " + percent + " ",
                percent + "% loss " + direction + " " + ports);
    }

    private Fault add(String name, Collection<Integer> ports, Direction direction, String match, String description) {
        if (closed) {
            throw new IllegalStateException("network faults are closed");
        }
        if (ports.isEmpty()) {
            throw new IllegalArgumentException("fault '" + name + "' names no port");
        }
        SortedSet<Integer> sorted = new TreeSet<>(ports);
        for (int port : sorted) {
            if (port < 1 || port > 65_535) {
                throw new IllegalArgumentException("fault '" + name + "': no such TCP port " + port);
            }
        }
        String set = sorted.stream().map(String::valueOf).collect(Collectors.joining(", ", "{ ", " }"));
        List<Integer> handles = new ArrayList<>(2);
        if (direction != Direction.FROM) {
            handles.add(addRule("tcp dport " + set + " " + match + "counter drop"));
        }
        if (direction != Direction.TO) {
            handles.add(addRule("tcp sport " + set + " " + match + "counter drop"));
        }
        Fault fault = new Fault(name, description, handles);
        active.add(fault);
        return fault;
    }

    private static int addRule(String rule) {
        String echoed = nft(List.of("--echo", "--handle", "add", "rule", "inet", TABLE, CHAIN, rule));
        Matcher matcher = HANDLE.matcher(echoed);
        if (!matcher.find()) {
            throw new TestkitException("nft added rule '" + rule + "' but printed no handle: " + echoed);
        }
        return Integer.parseInt(matcher.group(1));
    }

    /** Heals every fault still in force. */
    public synchronized void healAll() {
        new ArrayList<>(active).forEach(Fault::heal);
    }

    /** Heals every fault and deletes the table. */
    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            active.clear();
            nft(List.of("delete", "table", "inet", TABLE));
        }
    }

    /** Packets dropped so far by the rule with {@code handle}; 0 once it is deleted. */
    private static long counted(int handle) {
        Matcher matcher = COUNTED.matcher(nft(List.of("--handle", "list", "chain", "inet", TABLE, CHAIN)));
        while (matcher.find()) {
            if (Integer.parseInt(matcher.group(2)) == handle) {
                return Long.parseLong(matcher.group(1));
            }
        }
        return 0;
    }

    /** Runs {@code nft} with {@code args}; its output, or an exception naming the command and its error. */
    static String nft(List<String> args) {
        List<String> command = new ArrayList<>(args.size() + 1);
        command.add("nft");
        command.addAll(args);
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new TestkitException("cannot run nft (" + e.getMessage() + "): install the Debian package 'nftables' "
                    + "(bin/setup-tools does)", e);
        }
        try (InputStream out = process.getInputStream()) {
            String output = new String(out.readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(NFT_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new TestkitException("nft did not finish within " + NFT_TIMEOUT_SECONDS + " s: " + command);
            }
            if (process.exitValue() != 0) {
                throw new TestkitException("nft failed (exit " + process.exitValue() + "): " + command + ": " + output.strip());
            }
            return output;
        } catch (IOException e) {
            throw new TestkitException("cannot read the output of " + command + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new TestkitException("interrupted while running " + command, e);
        }
    }

    /** One fault in force: its rules, until {@link #heal()}. */
    public final class Fault implements AutoCloseable {
        private final String name;
        private final String description;
        private final List<Integer> handles;
        private long droppedWhenHealed = -1;

        private Fault(String name, String description, List<Integer> handles) {
            this.name = name;
            this.description = description;
            this.handles = List.copyOf(handles);
        }

        /** Packets this fault dropped so far (also after it healed). */
        public long droppedPackets() {
            synchronized (NetworkFaults.this) {
                return droppedWhenHealed >= 0 ? droppedWhenHealed : handles.stream().mapToLong(NetworkFaults::counted).sum();
            }
        }

        /** Deletes this fault's rules; traffic flows again. Idempotent. */
        public void heal() {
            synchronized (NetworkFaults.this) {
                if (droppedWhenHealed >= 0 || closed) {
                    return;
                }
                droppedWhenHealed = handles.stream().mapToLong(NetworkFaults::counted).sum();
                for (int handle : handles) {
                    nft(List.of("delete", "rule", "inet", TABLE, CHAIN, "handle", String.valueOf(handle)));
                }
                active.remove(this);
            }
        }

        @Override
        public void close() {
            heal();
        }

        @Override
        public String toString() {
            return name + " (" + description + ")";
        }
    }
}

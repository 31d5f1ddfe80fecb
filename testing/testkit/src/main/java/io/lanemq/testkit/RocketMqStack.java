package io.lanemq.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Real Apache RocketMQ name servers and brokers, one cluster per IDC, each server in its own child JVM on
 * 127.0.0.1, with all files in one temporary directory.
 *
 * <p>Integration tests share one stack per JVM through {@link #shared()}; a benchmark or a demo starts its own
 * with {@link #start(StackSpec)} and closes it. Children exit by themselves when this JVM dies, even by
 * {@code kill -9}, so a crashed run leaves no server behind.
 *
 * <pre>{@code
 * RocketMqStack stack = RocketMqStack.shared();          // idc-a/cluster-a and idc-b/cluster-b
 * stack.createTopic("orders", 4);                        // on every cluster; returns once routable
 * DefaultMQProducer producer = new DefaultMQProducer("p");
 * producer.setNamesrvAddr(stack.idc("idc-a").nameServerAddress());
 * producer.setInstanceName("idc-a");                     // one client instance per cluster
 * }</pre>
 *
 * <p>Thread-safety: all methods may be called from any thread; lifecycle operations on one IDC or node are
 * serialized.
 */
public final class RocketMqStack implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RocketMqStack.class);
    private static final int MAX_QUEUES = 1024;
    private static final int START_ATTEMPTS = 3;
    private static final String ADDRESS_IN_USE = "Address already in use";

    private static final Object SHARED_LOCK = new Object();
    private static RocketMqStack shared;
    private static RuntimeException sharedFailure;

    private final StackSpec spec;
    private final Path directory;
    private final List<Idc> idcs;
    private final boolean isShared;
    private boolean closed;

    private RocketMqStack(StackSpec spec, Path directory, List<Idc> idcs, boolean isShared) {
        this.spec = spec;
        this.directory = directory;
        this.idcs = List.copyOf(idcs);
        this.isShared = isShared;
    }

    /**
     * Starts every IDC's name server and brokers in parallel and returns when all brokers are registered.
     *
     * @throws TestkitException naming the node that failed, with the tail of its log; nothing is left running
     */
    public static RocketMqStack start(StackSpec spec) {
        return start(spec, false);
    }

    /**
     * The stack of {@link StackSpec#dualIdc()} shared by everything in this JVM, started on first use and killed
     * by a JVM shutdown hook (abruptly: its store is temporary). Its {@link #close()} does nothing, so a test
     * cannot take it away from the tests after it. A test that kills or stops a node must start it again.
     * If the first start fails, later calls fail at once with that cause instead of trying again.
     */
    public static RocketMqStack shared() {
        synchronized (SHARED_LOCK) {
            if (shared != null) {
                return shared;
            }
            if (sharedFailure != null) {
                throw new TestkitException("the shared RocketMQ stack failed to start earlier in this JVM",
                    sharedFailure);
            }
            try {
                RocketMqStack stack = start(StackSpec.dualIdc(), true);
                Runtime.getRuntime().addShutdownHook(new Thread(stack::destroy, "lanemq-testkit-shared-stack-stop"));
                shared = stack;
                return stack;
            } catch (RuntimeException e) {
                sharedFailure = e;
                throw e;
            }
        }
    }

    private static RocketMqStack start(StackSpec spec, boolean isShared) {
        Objects.requireNonNull(spec, "spec");
        for (int attempt = 1; ; attempt++) {
            try {
                return startOnce(spec, isShared);
            } catch (TestkitException e) {
                // Another JVM may bind a port between our probe and the child's bind: new ports fix that.
                if (attempt >= START_ATTEMPTS || !String.valueOf(e.getMessage()).contains(ADDRESS_IN_USE)) {
                    throw e;
                }
                LOG.warn("RocketMQ stack start attempt {} lost a port to another process, retrying with new ports",
                    attempt);
            }
        }
    }

    private static RocketMqStack startOnce(StackSpec spec, boolean isShared) {
        long startNanos = System.nanoTime();
        Path directory;
        try {
            directory = Files.createTempDirectory(spec.baseDir(), "lanemq-testkit-");
        } catch (IOException e) {
            throw new TestkitException("cannot create a temp dir under " + spec.baseDir() + ": " + e.getMessage(), e);
        }
        List<Idc> idcs = new ArrayList<>();
        try {
            ChildLauncher launcher = new ChildLauncher(spec, directory);
            for (IdcSpec idcSpec : spec.idcs()) {
                idcs.add(Idc.prepare(idcSpec, spec, launcher, directory.resolve(idcSpec.name())));
            }
            RocketMqStack stack = new RocketMqStack(spec, directory, idcs, isShared);
            stack.launchAndAwait();
            LOG.info("RocketMQ stack started in {} ms in {}: {}",
                (System.nanoTime() - startNanos) / 1_000_000, directory, idcs);
            return stack;
        } catch (RuntimeException e) {
            idcs.forEach(Idc::destroy);
            deleteRecursively(directory);
            throw e;
        }
    }

    // All children of all IDCs are launched before waiting for any: the JVM start-ups overlap.
    private void launchAndAwait() {
        Deadline deadline = Deadline.after(spec.startTimeout());
        List<List<ServerNode>> launched = new ArrayList<>();
        for (Idc idc : idcs) {
            launched.add(idc.launchDead());
        }
        for (int i = 0; i < idcs.size(); i++) {
            idcs.get(i).awaitStarted(launched.get(i), deadline);
        }
        if (spec.aclEnabled()) {
            idcs.forEach(idc -> idc.createAclUsers(deadline));
        }
    }

    public StackSpec spec() {
        return spec;
    }

    /** The stack's temporary directory: one subdirectory per IDC, one per node below it. */
    public Path directory() {
        return directory;
    }

    /** The IDCs in the order of {@link StackSpec#idcs()}. */
    public List<Idc> idcs() {
        return idcs;
    }

    /** The IDC with that name, e.g. {@code idc-a}. */
    public Idc idc(String name) {
        return idcs.stream().filter(i -> i.name().equals(name)).findFirst()
            .orElseThrow(() -> new IllegalArgumentException("no IDC " + name + " in " + names(Idc::name)));
    }

    /**
     * Creates (or updates) {@code topic} with {@code queues} read and write queues on every broker of every
     * cluster, and returns once each cluster's name server routes it to all its brokers.
     */
    public void createTopic(String topic, int queues) {
        for (Idc idc : idcs) {
            createTopic(idc.clusterName(), topic, queues);
        }
    }

    /** Like {@link #createTopic(String, int)} for the brokers of one cluster only, e.g. {@code cluster-a}. */
    public void createTopic(String clusterName, String topic, int queues) {
        if (topic == null || topic.isBlank()) {
            throw new IllegalArgumentException("topic must not be blank");
        }
        if (queues < 1 || queues > MAX_QUEUES) {
            throw new IllegalArgumentException("queues must be in [1, " + MAX_QUEUES + "]: " + queues);
        }
        checkOpen();
        Idc idc = idcs.stream().filter(i -> i.clusterName().equals(clusterName)).findFirst().orElseThrow(() ->
            new IllegalArgumentException("no cluster " + clusterName + " in " + names(Idc::clusterName)));
        idc.createTopic(topic, queues, Deadline.after(spec.startTimeout()));
    }

    /**
     * Messages stored in {@code topic} on every cluster since it was created (its queues' max offsets, summed): what
     * a consumer of the topic has read once it has read this many distinct messages. A remote call per cluster.
     */
    public long storedMessages(String topic) {
        checkOpen();
        long stored = 0;
        for (Idc idc : idcs) {
            stored += idc.storedMessages(topic);
        }
        return stored;
    }

    /**
     * Kills every child and deletes the temporary directory. Abrupt on purpose: the store is deleted right after,
     * and RocketMQ's graceful shutdown takes 15-18 s per broker. Does nothing on the {@link #shared()} stack.
     */
    @Override
    public void close() {
        if (isShared) {
            LOG.debug("close() ignored on the shared stack: a JVM shutdown hook stops it");
            return;
        }
        destroy();
    }

    private synchronized void destroy() {
        if (closed) {
            return;
        }
        closed = true;
        idcs.forEach(Idc::destroy);
        deleteRecursively(directory);
    }

    private synchronized void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the RocketMQ stack in " + directory + " is closed");
        }
    }

    private String names(Function<Idc, String> name) {
        return idcs.stream().map(name).toList().toString();
    }

    private static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | RuntimeException e) {
            LOG.warn("cannot delete the stack directory {}", dir, e);
        }
        if (Files.exists(dir)) {
            LOG.warn("the stack directory {} could not be deleted completely", dir);
        }
    }

    @Override
    public String toString() {
        return "RocketMqStack[" + directory + ", " + idcs + "]";
    }
}

package io.lanemq.testkit;

import java.nio.file.Path;
import java.time.Duration;
import java.util.OptionalLong;

/**
 * A RocketMQ server running in its own child JVM on {@value #HOST}. A node keeps its port and its store
 * directory across {@link #kill()}/{@link #stop()} and {@link #start()}, so persisted messages survive a restart.
 *
 * <p>Lifecycle methods are synchronized per node and block until the node has reached the new state. They are
 * idempotent: starting a running node or stopping a stopped one does nothing.
 *
 * <pre>{@code
 * BrokerNode broker = stack.idc("idc-a").brokers().get(0);
 * broker.kill();    // like kill -9: sends to it fail from now on
 * broker.start();   // same port and store; returns when its name server lists it again
 * }</pre>
 */
public abstract sealed class ServerNode permits NameServerNode, BrokerNode {

    /** The address every server binds and advertises. */
    public static final String HOST = "127.0.0.1";

    private final int port;
    private final ChildProcess child;
    private final Duration startTimeout;
    private final Duration stopTimeout;

    ServerNode(int port, ChildProcess child, StackSpec spec) {
        this.port = port;
        this.child = child;
        this.startTimeout = spec.startTimeout();
        this.stopTimeout = spec.stopTimeout();
    }

    /** {@code 127.0.0.1:port}, the address clients use. */
    public String address() {
        return HOST + ":" + port;
    }

    public int port() {
        return port;
    }

    /** Whether the child JVM is running (it may still be starting). */
    public boolean isAlive() {
        return child.isAlive();
    }

    /** Process id of the child JVM while it runs, e.g. to read {@code /proc/<pid>/status}. */
    public OptionalLong pid() {
        return child.pid();
    }

    /** The child JVM's stdout and stderr, across restarts. RocketMQ's own logs are under {@code logs/} next to it. */
    public Path logFile() {
        return child.logFile();
    }

    /** Starts the child JVM if it is not running and returns once it serves, or throws {@link TestkitException}. */
    public synchronized void start() {
        Deadline deadline = Deadline.after(startTimeout);
        if (launchIfDead()) {
            awaitStarted(deadline);
        }
    }

    /** Graceful stop (RocketMQ's own shutdown); kills the child if that takes longer than the stop timeout. */
    public synchronized void stop() {
        child.requestStop();
        awaitStopped();
    }

    /** Abrupt stop, like {@code kill -9}: returns when the process is gone. */
    public synchronized void kill() {
        child.kill();
        exited();
    }

    /** After {@link ChildProcess#requestStop()}: waits for the exit, killing the child after the stop timeout. */
    void awaitStopped() {
        child.awaitExit(stopTimeout);
        exited();
    }

    /** Called once the child is gone, so whatever stands in front of this node can go away with it. */
    void exited() {
    }

    /** Called once the launched child listens (it printed READY), before it is known to serve. */
    void listening() {
    }

    /** {@link #stop()} then {@link #start()}. */
    public synchronized void restart() {
        stop();
        start();
    }

    synchronized boolean launchIfDead() {
        if (child.isAlive()) {
            return false;
        }
        child.launch();
        return true;
    }

    /** Waits until the launched child serves; on failure the child is killed and the exception names it. */
    void awaitStarted(Deadline deadline) {
        child.awaitReady(deadline);
        listening();
        try {
            awaitServing(deadline);
        } catch (RuntimeException e) {
            child.kill();
            exited();
            throw e;
        }
    }

    /** Called after the child printed READY: waits for whatever else "serving" means for this kind of node. */
    abstract void awaitServing(Deadline deadline);

    ChildProcess child() {
        return child;
    }
}

package io.lanemq.testkit.process;

/**
 * Internal: names shared by the parent and the child JVMs. Not an API. The {@code testkit.} properties travel in
 * the same file as RocketMQ's settings; RocketMQ's config binding ignores names it has no setter for.
 */
public final class ChildProtocol {

    /** Printed alone on a stdout line by a child once its server is started. */
    public static final String READY_MARKER = "@@lanemq-testkit-ready@@";

    /**
     * Line the parent writes to a child's stdin to ask for a graceful shutdown. {@code Process.destroy()} is not
     * used for that because it also closes the child's stdin, which the child must read as "the parent is gone".
     */
    public static final String STOP_COMMAND = "stop";

    /** Property: directory the child deletes when it finds itself orphaned (its node directory). */
    public static final String ORPHAN_CLEANUP_DIR = "testkit.orphanCleanupDir";

    /** Property: ancestor of {@link #ORPHAN_CLEANUP_DIR} up to which empty directories are deleted too. */
    public static final String ORPHAN_CLEANUP_ROOT = "testkit.orphanCleanupRoot";

    /** Property: how long a broker waits for its name server to accept connections before starting. */
    public static final String NAME_SERVER_WAIT_MILLIS = "testkit.nameServerWaitMillis";

    private ChildProtocol() {
    }
}

package io.lanemq.config.etcd;

/** A running watch of one key; {@link #close()} stops its thread. */
public interface KeyWatch extends AutoCloseable {
    /** Whether a watch stream to etcd is established right now (false while etcd is unreachable). */
    boolean isConnected();

    /** The revision the next watch stream starts from: one past the last revision seen. */
    long nextRevision();

    @Override
    void close();
}

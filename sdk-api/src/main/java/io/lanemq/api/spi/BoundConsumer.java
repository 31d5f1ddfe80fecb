package io.lanemq.api.spi;

/** A started consumer on one cluster; {@link #close()} finishes in-flight messages and commits offsets. */
public interface BoundConsumer extends AutoCloseable {
    @Override
    void close();
}

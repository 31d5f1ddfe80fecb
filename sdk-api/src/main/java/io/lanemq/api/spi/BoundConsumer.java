package io.lanemq.api.spi;

import java.util.OptionalLong;

/** A started consumer on one cluster; {@link #close()} finishes in-flight messages and commits offsets. */
public interface BoundConsumer extends AutoCloseable {
    /**
     * Messages of {@code topic} (one this consumer subscribes) that its group has not committed
     * yet, over all queues of the cluster; empty when the binding cannot tell now. The core uses
     * it to stop draining a topic that no longer receives sends only once nothing is left on it.
     */
    default OptionalLong backlog(String topic) {
        return OptionalLong.empty();
    }

    @Override
    void close();
}

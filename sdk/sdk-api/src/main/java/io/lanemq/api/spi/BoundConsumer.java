package io.lanemq.api.spi;

import java.util.List;
import java.util.Optional;
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

    /**
     * The member tags of the live members of this consumer's group on this cluster, this one's included
     * (members that joined without a tag are left out); empty when the cluster cannot tell now. The core
     * learns from it which lanes a group has consumers in.
     */
    default Optional<List<String>> memberTags() {
        return Optional.empty();
    }

    /**
     * Stops fetching until {@link #resume()}, keeping this consumer's share of the group; what was fetched already is
     * still handed to the listener (the core holds it while paused). The default does nothing: the core then holds
     * whatever the binding keeps fetching, which costs memory, not correctness.
     */
    default void pause() {
    }

    /** Fetches again after {@link #pause()}. */
    default void resume() {
    }

    @Override
    void close();
}

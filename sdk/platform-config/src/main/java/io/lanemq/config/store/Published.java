package io.lanemq.config.store;

/**
 * The configuration as it is in etcd now.
 *
 * @param yaml     the document, or null when the key holds none yet
 * @param revision the etcd revision that last wrote it (0: none); an edit publishes only if it is still this one
 */
public record Published(String yaml, long revision) {
    public boolean exists() {
        return yaml != null;
    }
}

package io.lanemq.delay;

/**
 * The store's health for a service's health endpoint: whether the last append reached the disk,
 * and the last I/O error of any kind (append, mark, load).
 *
 * @param writable   false from a failed append (disk full, read-only) until the next append succeeds
 * @param errors     I/O errors since the engine started
 * @param lastError  the most recent one, with its context; empty if none
 */
public record StoreHealth(boolean writable, long errors, String lastError) {
}

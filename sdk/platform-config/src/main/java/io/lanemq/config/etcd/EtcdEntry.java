package io.lanemq.config.etcd;

/**
 * One key's value as etcd returned it.
 *
 * @param modRevision   the revision that last wrote this key
 * @param storeRevision the store's revision when the answer was made (at least {@code modRevision}); a watch
 *                      from {@code storeRevision + 1} misses nothing after this answer
 */
public record EtcdEntry(String key, String value, long modRevision, long storeRevision) {
}

package io.lanemq.config.etcd;

import java.util.Optional;

/**
 * What {@link EtcdClient#compareAndPut} did.
 *
 * @param written  whether the key still had the expected revision, so every key was written
 * @param revision the revision of the write when written, else the store's revision when refused
 * @param current  when refused: the key as it is now (empty when it does not exist); empty when written
 */
public record CompareAndPutResult(boolean written, long revision, Optional<EtcdEntry> current) {
}

package io.lanemq.config.etcd;

/**
 * What {@link EtcdClient#transact} did.
 *
 * @param written  false when a key was not at its expected revision: nothing was changed
 * @param revision the store's revision after the transaction (the writes' revision when written)
 */
public record TransactionResult(boolean written, long revision) {
}

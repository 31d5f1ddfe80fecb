package io.lanemq.api;

/**
 * The application's local transaction, run by {@link Producer#sendInTransaction} after the broker
 * has stored the message as prepared (invisible to consumers).
 *
 * <p>Return {@link TransactionResolution#COMMIT} once the local change is durable. An exception
 * counts as {@link TransactionResolution#UNKNOWN}: the broker will ask the
 * {@link TransactionChecker} later, so a crash here loses nothing.
 */
@FunctionalInterface
public interface LocalTransaction {
    TransactionResolution execute(SendResult prepared) throws Exception;
}

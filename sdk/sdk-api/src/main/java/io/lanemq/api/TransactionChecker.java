package io.lanemq.api;

/**
 * Answers the broker's question "did this transaction commit?" for prepared messages whose local
 * transaction returned {@link TransactionResolution#UNKNOWN} or whose producer died. Any live
 * producer of the same producer group may be asked, so the answer must come from durable state
 * (a database row), never from memory of the sending process. Called from SDK threads; an
 * exception counts as UNKNOWN and the broker asks again later.
 */
@FunctionalInterface
public interface TransactionChecker {
    TransactionResolution check(ReceivedMessage prepared);
}

package io.lanemq.api.spi;

import io.lanemq.api.TransactionResolution;

/** The core's side of a local transaction: told where the prepared message went, answers the outcome. */
@FunctionalInterface
public interface BoundLocalTransaction {
    TransactionResolution execute(BoundSendResult prepared);
}

package io.lanemq.api.spi;

import io.lanemq.api.TransactionResolution;

/** The core's side of a broker check-back for a prepared message. */
@FunctionalInterface
public interface TransactionCheckHandler {
    TransactionResolution check(BoundMessage prepared);
}

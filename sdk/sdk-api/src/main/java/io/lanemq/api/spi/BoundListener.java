package io.lanemq.api.spi;

import io.lanemq.api.ConsumeResult;

/** The core's side of consumption: told each message of one cluster, answers its outcome. */
@FunctionalInterface
public interface BoundListener {
    ConsumeResult onMessage(BoundMessage message);
}

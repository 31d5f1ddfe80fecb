package io.lanemq.config;

/** Where a consumer group with no committed offset starts. */
public enum StartPosition {
    LATEST,
    EARLIEST
}

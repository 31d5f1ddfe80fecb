package io.lanemq.config;

/** How a consumer group receives its messages; chosen on the platform, never in application code. */
public enum ConsumptionMode {
    /** The SDK consumes from the brokers of every cluster of the logic topic itself. */
    DIRECT,
    /** Messages are pushed to the SDK by the consumer proxy over gRPC; the platform's {@code proxy} section says where. */
    PROXY
}

/**
 * An in-memory {@link io.lanemq.api.spi.MessagingBinding} for fast tests of the SDK core: clusters with topics,
 * queues and offsets, consumer groups, transactions and request-reply, all in one JVM, with failures and
 * latency injected per cluster and every send attempt recorded. Not a broker model: one dispatch thread per
 * consumer, redelivery without back-off, no persistence. Tests that need RocketMQ's own behaviour use the real
 * stack ({@link io.lanemq.testkit.RocketMqStack}).
 *
 * <p>Not registered with {@link java.util.ServiceLoader}: a test hands it to the component it builds, so a class
 * path that also holds sdk-rocketmq still finds exactly one binding.
 */
package io.lanemq.testkit.memory;

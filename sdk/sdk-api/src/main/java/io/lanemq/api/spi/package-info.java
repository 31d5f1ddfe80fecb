/**
 * Service provider interfaces: what an SDK core and an MQ binding implement. Applications do not
 * use these types.
 *
 * <p>{@link io.lanemq.api.spi.ClientProvider} is implemented by the SDK core and found by
 * {@link io.lanemq.api.MessagingClient#create}. {@link io.lanemq.api.spi.MessagingBinding} is
 * implemented once per message queue product (RocketMQ today) and found by the core through
 * {@link java.util.ServiceLoader}; it speaks in physical topics on one cluster and knows nothing
 * of logic topics, weights or IDCs.
 */
package io.lanemq.api.spi;

/**
 * Weighted, health- and latency-aware selection of callees, with no knowledge of what a callee
 * is. Entry point: {@link io.lanemq.failover.WeightedFailover}. Depends on slf4j only.
 */
package io.lanemq.failover;

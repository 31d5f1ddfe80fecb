/**
 * Real Apache RocketMQ clusters for tests, benchmarks and demos: {@link io.lanemq.testkit.RocketMqStack} starts
 * one name server and its brokers per IDC ({@link io.lanemq.testkit.Idc}), each in a child JVM on 127.0.0.1,
 * and lets a test kill, stop and restart them ({@link io.lanemq.testkit.ServerNode}). An IDC built with
 * {@link io.lanemq.testkit.IdcSpec.Builder#latencyProxy} has its brokers behind a
 * {@link io.lanemq.testkit.LatencyProxy}, so a test can make that IDC answer slowly
 * ({@link io.lanemq.testkit.Idc#setBrokerDelay}).
 *
 * <p>Logging: this jar ships {@code rmq.logback-test.xml}, which RocketMQ's own (shaded) logging picks first in
 * the parent JVM. It prints warnings and errors of RocketMQ clients to the console. Without it, the broker jar
 * on the class path would make RocketMQ clients in the test JVM log with the broker's config into
 * {@code ~/logs/rocketmqlogs}. A {@code rmq.logback-test.xml} earlier on the class path, or
 * {@code -Drmq.logback.configurationFile}, overrides it.
 */
package io.lanemq.testkit;

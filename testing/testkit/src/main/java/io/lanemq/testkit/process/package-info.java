/**
 * Internal: entry points of the child JVMs that run a RocketMQ name server or broker for the testkit.
 * Public only because {@code java} must be able to launch them; not an API.
 *
 * <p>Protocol between parent and child: the child reads its settings from the properties file named by its only
 * argument, prints {@link io.lanemq.testkit.process.ChildProtocol#READY_MARKER} on stdout once it serves, shuts
 * down gracefully when it reads {@link io.lanemq.testkit.process.ChildProtocol#STOP_COMMAND} on stdin, and halts by
 * itself when its stdin reaches end of file, which happens when the parent JVM dies for any reason.
 */
package io.lanemq.testkit.process;

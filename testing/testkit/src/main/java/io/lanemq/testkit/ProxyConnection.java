package io.lanemq.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Arrays;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client connection of a {@link LatencyProxy} and its connection to the target.
 *
 * <p>Design: requests are copied straight through by one thread. Responses are read by a second thread, which
 * stamps each chunk with its due time (read time + the proxy's delay at that moment) and queues it; a third
 * thread writes the queue in order, each chunk not before its due time. One FIFO queue per connection keeps the
 * byte order even when the delay changes. The target's end of stream travels through the same queue, so the
 * client sees the close after the last response, as late as the data. The queue is unbounded: a test's load
 * is small, and a bound would turn added latency into back-pressure on the target.
 */
final class ProxyConnection {

    private static final Logger LOG = LoggerFactory.getLogger(ProxyConnection.class);
    private static final int CHUNK_BYTES = 64 * 1024;
    // Loopback refuses at once when nothing listens; the timeout only bounds a target that stopped answering.
    private static final int CONNECT_TIMEOUT_MILLIS = 2_000;

    private final LatencyProxy proxy;
    private final Socket client;
    private final Socket target = new Socket();
    private final InetSocketAddress targetAddress;
    private final String name;
    private final BlockingQueue<Chunk> responses = new LinkedBlockingQueue<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile Thread responseWriter;

    /** Bytes from the target, or the target's end of stream when {@code bytes} is null. */
    private record Chunk(byte[] bytes, long dueNanos) {
    }

    ProxyConnection(LatencyProxy proxy, Socket client, InetSocketAddress targetAddress, String name) {
        this.proxy = proxy;
        this.client = client;
        this.targetAddress = targetAddress;
        this.name = name;
    }

    void start() {
        daemon(this::connectAndForwardRequests, name + "-request").start();
    }

    private void connectAndForwardRequests() {
        try {
            client.setTcpNoDelay(true);
            target.setTcpNoDelay(true);
            target.connect(targetAddress, CONNECT_TIMEOUT_MILLIS);
        } catch (IOException e) {
            // Expected while the target is down: closing the client lets it fail at once instead of waiting.
            LOG.debug("{}: target {} unreachable ({}), closing the client connection", name, targetAddress,
                e.getMessage());
            close();
            return;
        }
        Thread writer = daemon(this::writeResponses, name + "-response-write");
        responseWriter = writer;
        writer.start();
        daemon(this::readResponses, name + "-response-read").start();
        forwardRequests();
    }

    private void forwardRequests() {
        byte[] buffer = new byte[CHUNK_BYTES];
        try {
            InputStream in = client.getInputStream();
            OutputStream out = target.getOutputStream();
            int n;
            while ((n = in.read(buffer)) >= 0) {
                out.write(buffer, 0, n);
            }
            // The client finished sending: pass the half-close on, its responses may still be on their way.
            target.shutdownOutput();
        } catch (IOException e) {
            close();
        }
    }

    private void readResponses() {
        byte[] buffer = new byte[CHUNK_BYTES];
        try {
            InputStream in = target.getInputStream();
            int n;
            while ((n = in.read(buffer)) >= 0) {
                responses.add(new Chunk(Arrays.copyOf(buffer, n), System.nanoTime() + proxy.delayNanos()));
            }
        } catch (IOException e) {
            // A reset target (e.g. killed) ends the stream like a closed one.
        }
        responses.add(new Chunk(null, System.nanoTime() + proxy.delayNanos()));
    }

    private void writeResponses() {
        try {
            OutputStream out = client.getOutputStream();
            while (!closed.get()) {
                Chunk chunk = responses.take();
                long wait = chunk.dueNanos() - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                if (chunk.bytes() == null) {
                    break;
                }
                out.write(chunk.bytes());
            }
        } catch (IOException | InterruptedException e) {
            // The client is gone or the connection was closed: nothing left to deliver.
        }
        close();
    }

    /** Closes both sockets and stops the threads; idempotent. */
    void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        // Unlisted before the client can see the close, so openConnections() is never behind what a client saw.
        proxy.closed(this);
        closeQuietly(client);
        closeQuietly(target);
        Thread writer = responseWriter;
        if (writer != null && writer != Thread.currentThread()) {
            writer.interrupt();
        }
    }

    private void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            LOG.debug("{}: closing a socket failed", name, e);
        }
    }

    private static Thread daemon(Runnable task, String threadName) {
        Thread thread = new Thread(task, threadName);
        thread.setDaemon(true);
        return thread;
    }

    @Override
    public String toString() {
        return name + "[" + client.getRemoteSocketAddress() + " -> " + targetAddress + "]";
    }
}

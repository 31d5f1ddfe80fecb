package io.lanemq.config;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback TCP relay in front of a server, which a test can {@link #cut()} (every connection dropped, new ones
 * closed at once) and {@link #restore()}: the client loses the server while the server keeps running and changing.
 */
final class TcpRelay implements AutoCloseable {
    private static final AtomicInteger THREADS = new AtomicInteger();

    private final ServerSocket listener;
    private final int targetPort;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile boolean cut;

    TcpRelay(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.listener = new ServerSocket();
        listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        thread("accept", this::accept).start();
    }

    String endpoint() {
        return "127.0.0.1:" + listener.getLocalPort();
    }

    void cut() {
        cut = true;
        for (Socket socket : open) {
            closeQuietly(socket);
        }
        open.clear();
    }

    void restore() {
        cut = false;
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                if (cut) {
                    closeQuietly(client);
                    continue;
                }
                Socket upstream = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                open.add(client);
                open.add(upstream);
                thread("up", () -> pump(client, upstream)).start();
                thread("down", () -> pump(upstream, client)).start();
            } catch (IOException e) {
                // listener closed, or the server refused: the client sees its connection fail either way
            }
        }
    }

    private void pump(Socket from, Socket to) {
        byte[] buffer = new byte[16 * 1024];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // one side closed: close both below
        } finally {
            closeQuietly(from);
            closeQuietly(to);
            open.remove(from);
            open.remove(to);
        }
    }

    private static Thread thread(String role, Runnable body) {
        Thread thread = new Thread(body, "test-tcp-relay-" + role + "-" + THREADS.incrementAndGet());
        thread.setDaemon(true);
        return thread;
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    @Override
    public void close() {
        try {
            listener.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        cut();
    }
}

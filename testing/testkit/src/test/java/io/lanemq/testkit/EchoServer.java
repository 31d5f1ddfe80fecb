package io.lanemq.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * A loopback TCP server for proxy tests: echoes every byte back, or, with {@code hangUpAtOnce}, closes each
 * connection as soon as it is accepted. Records when each chunk arrived, to tell request from response delay.
 */
final class EchoServer implements AutoCloseable {

    private final ServerSocket server;
    private final boolean hangUpAtOnce;
    private final List<Socket> accepted = new CopyOnWriteArrayList<>();
    private final BlockingQueue<Long> arrivalNanos = new LinkedBlockingQueue<>();

    private EchoServer(boolean hangUpAtOnce) throws IOException {
        this.hangUpAtOnce = hangUpAtOnce;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::acceptLoop, "echo-server-" + server.getLocalPort() + "-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    static EchoServer echoing() throws IOException {
        return new EchoServer(false);
    }

    static EchoServer hangingUp() throws IOException {
        return new EchoServer(true);
    }

    InetSocketAddress address() {
        return (InetSocketAddress) server.getLocalSocketAddress();
    }

    /** {@link System#nanoTime()} of each chunk's arrival, in order. */
    BlockingQueue<Long> arrivalNanos() {
        return arrivalNanos;
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                if (hangUpAtOnce) {
                    socket.close();
                    continue;
                }
                accepted.add(socket);
                Thread echo = new Thread(() -> echo(socket), "echo-server-" + server.getLocalPort() + "-conn");
                echo.setDaemon(true);
                echo.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private void echo(Socket socket) {
        byte[] buffer = new byte[8192];
        try (socket) {
            socket.setTcpNoDelay(true);
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            int n;
            while ((n = in.read(buffer)) >= 0) {
                arrivalNanos.add(System.nanoTime());
                out.write(buffer, 0, n);
            }
        } catch (IOException e) {
            // The test closed the connection.
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket socket : accepted) {
            socket.close();
        }
    }
}

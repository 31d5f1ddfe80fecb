package io.lanemq.testkit.net;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

/**
 * Hostile input on one TCP port, reproducible from a seed: random bytes, a valid opening cut short, a valid HTTP/2
 * preface (inside TLS when the port speaks it) followed by garbage, and a flood of idle connections. Every
 * connection it makes must be closed by the server (or answered, then closed) within the read timeout; one the server
 * leaves open counts as {@link Counts#hung()}. What the server logs and whether it still serves others is for the
 * test to check, during ({@link #flood}) and after.
 *
 * <pre>{@code
 * PortFuzzer fuzz = PortFuzzer.against(address, 42).tls(sslContext);
 * PortFuzzer.Counts counts = fuzz.randomBytes(200, 4096).plus(fuzz.truncated(clientHello, 100)).plus(fuzz.prefaceThenGarbage(100));
 * assertThat(counts.hung()).isZero();
 * }</pre>
 *
 * <p>Connections run on a few threads at once, so a server that handles them one by one shows as slow, not hung.
 * Not thread-safe: one test drives one fuzzer.
 */
public final class PortFuzzer {
    /** The client connection preface every HTTP/2 connection starts with (RFC 9113, section 3.4). */
    public static final byte[] HTTP2_PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    /**
     * The heap a server may keep per connection once it is closed, for a fuzz test's bound on
     * {@link #heapKeptPerConnection}: a closed connection legitimately keeps nothing, so this is only the noise of a
     * full collection spread over the connections. 1 KiB is below the smallest state any of the project's servers holds for an open
     * connection (the dial test's ack listener reads into an 8 KiB buffer; the HTTP and gRPC servers' Netty channels
     * each hold a pipeline and their decoders' buffers), so a server that keeps any connection's state fails the bound.
     */
    public static final long HEAP_KEPT_PER_CLOSED_CONNECTION = 1024;
    private static final int PARALLEL = 8;

    private final InetSocketAddress target;
    private final Random random;
    private SSLContext tls;
    private Duration readTimeout = Duration.ofSeconds(10);

    private PortFuzzer(InetSocketAddress target, long seed) {
        this.target = target;
        this.random = new Random(seed);
    }

    public static PortFuzzer against(InetSocketAddress target, long seed) {
        return new PortFuzzer(target, seed);
    }

    /** The port speaks TLS: {@link #prefaceThenGarbage} completes a handshake (ALPN h2) with this context first. */
    public PortFuzzer tls(SSLContext context) {
        this.tls = context;
        return this;
    }

    /** How long the server may take to close a connection it was sent rubbish on. */
    public PortFuzzer readTimeout(Duration timeout) {
        this.readTimeout = timeout;
        return this;
    }

    /** How many connections were tried, how many the server closed (having answered or not), and how many it left open. */
    public record Counts(int tried, int closed, int hung) {
        public Counts plus(Counts other) {
            return new Counts(tried + other.tried, closed + other.closed, hung + other.hung);
        }
    }

    /** {@code connections} connections, each sending 1..maxBytes random bytes and half-closing. */
    public Counts randomBytes(int connections, int maxBytes) throws Exception {
        List<byte[]> payloads = new ArrayList<>();
        for (int i = 0; i < connections; i++) {
            byte[] bytes = new byte[1 + random.nextInt(maxBytes)];
            random.nextBytes(bytes);
            payloads.add(bytes);
        }
        return run(payloads, false);
    }

    /** {@code connections} connections, each sending {@code opening} cut at a random point and half-closing. */
    public Counts truncated(byte[] opening, int connections) throws Exception {
        List<byte[]> payloads = new ArrayList<>();
        for (int i = 0; i < connections; i++) {
            byte[] cut = new byte[random.nextInt(opening.length)];
            System.arraycopy(opening, 0, cut, 0, cut.length);
            payloads.add(cut);
        }
        return run(payloads, false);
    }

    /**
     * {@code connections} connections, each sending the HTTP/2 preface then 1..4096 random bytes (as frames they are
     * nonsense: random types, lengths up to 16 MiB declared, stream ids), inside TLS when {@link #tls} was given.
     */
    public Counts prefaceThenGarbage(int connections) throws Exception {
        List<byte[]> payloads = new ArrayList<>();
        for (int i = 0; i < connections; i++) {
            byte[] garbage = new byte[1 + random.nextInt(4096)];
            random.nextBytes(garbage);
            byte[] bytes = new byte[HTTP2_PREFACE.length + garbage.length];
            System.arraycopy(HTTP2_PREFACE, 0, bytes, 0, HTTP2_PREFACE.length);
            System.arraycopy(garbage, 0, bytes, HTTP2_PREFACE.length, garbage.length);
            payloads.add(bytes);
        }
        return run(payloads, tls != null);
    }

    /**
     * Opens {@code connections} connections that send nothing, runs {@code during} while they are open, then closes
     * them; returns how many were accepted (a server may refuse some at once: a connection cap).
     */
    public int flood(int connections, ThrowingRunnable during) throws Exception {
        List<Socket> open = new CopyOnWriteArrayList<>();
        AtomicInteger accepted = new AtomicInteger();
        // Connected from many threads at once, as a flood comes: one by one, each SYN the full backlog dropped would
        // wait out the kernel's retry (1 s, then 3 s) before the next even started.
        ExecutorService connectors = Executors.newFixedThreadPool(PARALLEL * 4, r -> {
            Thread t = new Thread(r, "port-fuzzer-flood");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < connections; i++) {
                done.add(connectors.submit(() -> {
                    Socket socket = new Socket();
                    open.add(socket);
                    try {
                        socket.connect(target, 5_000);
                        accepted.incrementAndGet();
                    } catch (IOException refused) {
                        // A full backlog or a refusal: what a flood should meet.
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
            during.run();
        } finally {
            connectors.shutdownNow();
            for (Socket socket : open) {
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // closing a test socket
                }
            }
        }
        return accepted.get();
    }

    /**
     * Opens {@code connections} connections that each send the first half of {@code request}, then one more byte every
     * {@code trickle} but never the rest (a slowloris), runs {@code during} while they are open, then closes them;
     * returns how many the server had closed by the end of {@code during}.
     */
    public int slowClients(int connections, byte[] request, Duration trickle, ThrowingRunnable during) throws Exception {
        int half = request.length / 2;
        List<Socket> open = new ArrayList<>();
        int[] sent = new int[connections];
        try {
            for (int i = 0; i < connections; i++) {
                Socket socket = plainSocket();
                open.add(socket);
                socket.getOutputStream().write(request, 0, half);
                sent[i] = half;
            }
            Thread trickler = new Thread(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    for (int i = 0; i < open.size(); i++) {
                        if (sent[i] < request.length - 1) {
                            try {
                                open.get(i).getOutputStream().write(request[sent[i]++]);
                            } catch (IOException closedByTheServer) {
                                sent[i] = request.length; // nothing more to send on it
                            }
                        }
                    }
                    try {
                        Thread.sleep(trickle.toMillis()); // the pace of the trickle, not a wait for an outcome
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "port-fuzzer-slow-clients");
            trickler.setDaemon(true);
            trickler.start();
            try {
                during.run();
            } finally {
                trickler.interrupt();
                trickler.join();
            }
            int closed = 0;
            for (Socket socket : open) {
                if (closedByServer(socket)) {
                    closed++;
                }
            }
            return closed;
        } finally {
            for (Socket socket : open) {
                socket.close();
            }
        }
    }

    /** Whether the server has closed {@code socket}: an end of stream or a reset at once, nothing to wait for. */
    private static boolean closedByServer(Socket socket) throws IOException {
        socket.setSoTimeout(1);
        return readsToClose(socket);
    }

    /**
     * Reads whatever the server answers (an alert, a GOAWAY, a 408 or 400) until it closes or resets the connection
     * (true) or the socket's timeout passes (false).
     */
    private static boolean readsToClose(Socket socket) throws IOException {
        byte[] buffer = new byte[8192];
        try {
            InputStream in = socket.getInputStream();
            while (in.read(buffer) >= 0) {
                // read and dropped: only the close counts
            }
            return true;
        } catch (SocketTimeoutException stillOpen) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }

    @FunctionalInterface
    public interface ThrowingRunnable {
        void run() throws Exception;
    }

    private Counts run(List<byte[]> payloads, boolean inTls) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(PARALLEL, r -> {
            Thread t = new Thread(r, "port-fuzzer");
            t.setDaemon(true);
            return t;
        });
        AtomicInteger closed = new AtomicInteger();
        AtomicInteger hung = new AtomicInteger();
        try {
            List<Future<?>> done = new ArrayList<>();
            for (byte[] payload : payloads) {
                done.add(pool.submit(() -> {
                    if (oneConnection(payload, inTls)) {
                        closed.incrementAndGet();
                    } else {
                        hung.incrementAndGet();
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        return new Counts(payloads.size(), closed.get(), hung.get());
    }

    /** True when the server closed the connection (or reset it) before the read timeout. */
    private boolean oneConnection(byte[] payload, boolean inTls) throws IOException {
        Socket opened;
        try {
            opened = inTls ? tlsSocket() : plainSocket();
        } catch (SocketTimeoutException stillOpen) {
            return false;
        } catch (ConnectException refused) {
            throw refused;
        } catch (IOException closedDuringHandshake) {
            // A server whose handshake timeout passes first (a slow host) closes or resets the connection: a close.
            return true;
        }
        try (Socket socket = opened) {
            socket.setSoTimeout((int) readTimeout.toMillis());
            try {
                OutputStream out = socket.getOutputStream();
                out.write(payload);
                out.flush();
                if (!inTls) {
                    socket.shutdownOutput();
                }
            } catch (IOException closedWhileWriting) {
                return true;
            }
            return readsToClose(socket);
        }
    }

    private Socket plainSocket() throws IOException {
        Socket socket = new Socket();
        socket.connect(target, 5_000);
        return socket;
    }

    private Socket tlsSocket() throws IOException {
        SSLSocket socket = (SSLSocket) tls.getSocketFactory().createSocket();
        socket.connect(target, 5_000);
        SSLParameters parameters = socket.getSSLParameters();
        parameters.setApplicationProtocols(new String[] {"h2"});
        socket.setSSLParameters(parameters);
        socket.setSoTimeout((int) readTimeout.toMillis());
        socket.startHandshake();
        return socket;
    }

    /**
     * This JVM's heap in use after a full collection, for a fuzz test to compare before and after: what a server kept
     * of the hostile connections it closed. Approximate (a collection is a request), so compare with a generous bound.
     */
    public static long heapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return java.lang.management.ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** Hostile connections a fuzz test makes between two heap measurements; returns how many it made. */
    @FunctionalInterface
    public interface Round {
        int connections() throws Exception;
    }

    /**
     * The heap {@code round} kept per connection it made, the lesser of two runs. A server that keeps a closed
     * connection's state grows the heap in both runs; the rest of a shared test JVM (an earlier test's threads still
     * finishing, a pool's next chunk, a class loaded late) moves {@link #heapAfterGc} by up to ~2 MiB either way, in
     * one run or the other.
     */
    public static long heapKeptPerConnection(Round round) throws Exception {
        long least = Long.MAX_VALUE;
        for (int run = 0; run < 2; run++) {
            long before = heapAfterGc();
            int connections = round.connections();
            least = Math.min(least, (heapAfterGc() - before) / Math.max(1, connections));
        }
        return least;
    }

    /**
     * The first bytes a TLS client sends (its ClientHello), made by the JDK's own engine: a valid opening to cut short
     * with {@link #truncated}.
     */
    public static byte[] clientHello() throws Exception {
        SSLEngine engine = SSLContext.getDefault().createSSLEngine("127.0.0.1", 443);
        engine.setUseClientMode(true);
        ByteBuffer out = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
        engine.beginHandshake();
        engine.wrap(ByteBuffer.allocate(0), out);
        out.flip();
        byte[] hello = new byte[out.remaining()];
        out.get(hello);
        return hello;
    }

    /** A TLS context that trusts exactly the PEM certificate(s) in {@code caPem}. */
    public static SSLContext trusting(Path caPem) throws Exception {
        KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
        trusted.load(null, null);
        try (InputStream in = Files.newInputStream(caPem)) {
            int i = 0;
            for (Certificate certificate : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                trusted.setCertificateEntry("ca-" + i++, certificate);
            }
        }
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }
}

package io.lanemq.dialtest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.support.Ticker;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class AckListenerTest {

    private static final long RUN = 77;
    private static final Duration WAIT = Duration.ofSeconds(10);

    private final DialTestMetrics metrics = new DialTestMetrics(new SimpleMeterRegistry());
    private final List<AckFrame> received = new CopyOnWriteArrayList<>();
    private final AckSink sink = (frame, nanos) -> {
        if (frame.runId() != RUN) {
            return AckSink.Outcome.UNKNOWN_RUN;
        }
        if (frame.sequence() < 0) {
            return AckSink.Outcome.UNKNOWN_PROBE;
        }
        received.add(frame);
        return AckSink.Outcome.MATCHED;
    };
    private final AckCodec codec = new AckCodec(AckCodecTest.SECRET);
    private final List<Socket> sockets = new ArrayList<>();
    private AckListener listener = start(16);

    private AckListener start(int maxConnections) {
        return AckListener.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), AckCodecTest.SECRET, sink,
            metrics, Ticker.system(), maxConnections, Duration.ofMinutes(1));
    }

    @AfterEach
    void close() throws IOException {
        for (Socket s : sockets) {
            s.close();
        }
        listener.close();
    }

    @Test
    void listensOnTheConfiguredLoopbackAddressOnly() {
        assertThat(listener.address().getAddress().isLoopbackAddress()).isTrue();
        assertThat(listener.address().getPort()).isPositive();
    }

    @Test
    void deliversValidFramesInOrderOverOneConnection() throws IOException {
        OutputStream out = connect().getOutputStream();
        for (int i = 0; i < 100; i++) {
            out.write(codec.encode(ack(i)));
        }
        out.flush();
        await().atMost(WAIT).until(() -> received.size() == 100);
        assertThat(received).extracting(AckFrame::sequence).containsExactlyElementsOf(
            java.util.stream.LongStream.range(0, 100).boxed().toList());
    }

    @Test
    void randomGarbageIsCountedAndTheListenerKeepsServing() throws IOException {
        Random random = new Random(11);
        for (int i = 0; i < 20; i++) {
            byte[] garbage = new byte[1 + random.nextInt(300)];
            random.nextBytes(garbage);
            try (Socket s = connect()) {
                s.getOutputStream().write(garbage);
                s.getOutputStream().flush();
            }
        }
        await().atMost(WAIT).until(() -> rejectedTotal() >= 20);
        assertValidFrameStillAccepted();
    }

    @Test
    void aHugeLengthPrefixIsRejectedAndClosesTheConnection() throws IOException {
        Socket s = connect();
        s.getOutputStream().write(ByteBuffer.allocate(4).putInt(Integer.MAX_VALUE).array());
        s.getOutputStream().flush();
        await().atMost(WAIT).until(() -> metrics.rejectedCount(AckRejection.OVERSIZE) == 1);
        assertClosedByPeer(s);
        assertValidFrameStillAccepted();
    }

    @Test
    void aBadMacIsRejectedAndClosesTheConnection() throws IOException {
        byte[] forged = new AckCodec("not-the-shared-secret-at-all!!!!".getBytes()).encode(ack(1));
        Socket s = connect();
        s.getOutputStream().write(forged);
        s.getOutputStream().flush();
        await().atMost(WAIT).until(() -> metrics.rejectedCount(AckRejection.BAD_MAC) == 1);
        assertClosedByPeer(s);
        assertThat(received).isEmpty();
        assertValidFrameStillAccepted();
    }

    @Test
    void aTruncatedFrameIsCounted() throws IOException {
        byte[] frame = codec.encode(ack(1));
        try (Socket s = connect()) {
            s.getOutputStream().write(frame, 0, frame.length - 5);
            s.getOutputStream().flush();
        }
        await().atMost(WAIT).until(() -> metrics.rejectedCount(AckRejection.TRUNCATED) == 1);
        assertThat(received).isEmpty();
    }

    @Test
    void unknownRunsAndProbesAreCountedWithoutClosingTheConnection() throws IOException {
        OutputStream out = connect().getOutputStream();
        out.write(codec.encode(new AckFrame(RUN + 1, 1, ProbeKind.NORMAL, 0, 0)));
        out.write(codec.encode(new AckFrame(RUN, -5, ProbeKind.NORMAL, 0, 0)));
        out.write(codec.encode(ack(9)));
        out.flush();
        await().atMost(WAIT).until(() -> received.size() == 1);
        assertThat(metrics.rejectedCount(AckRejection.UNKNOWN_RUN)).isEqualTo(1);
        assertThat(metrics.rejectedCount(AckRejection.UNKNOWN_PROBE)).isEqualTo(1);
    }

    @Test
    void connectionsBeyondTheLimitAreClosedAndCounted() throws IOException {
        listener.close();
        listener = start(2);
        Socket first = connect();
        Socket second = connect();
        first.getOutputStream().write(codec.encode(ack(1)));
        second.getOutputStream().write(codec.encode(ack(2)));
        await().atMost(WAIT).until(() -> received.size() == 2); // both are being served
        Socket third = connect();
        await().atMost(WAIT).until(() -> metrics.rejectedCount(AckRejection.CONNECTION_LIMIT) == 1);
        assertClosedByPeer(third);
        first.getOutputStream().write(codec.encode(ack(3)));
        await().atMost(WAIT).until(() -> received.size() == 3);
    }

    private void assertValidFrameStillAccepted() throws IOException {
        int before = received.size();
        Socket s = connect();
        s.getOutputStream().write(codec.encode(ack(1000)));
        s.getOutputStream().flush();
        await().atMost(WAIT).until(() -> received.size() == before + 1);
    }

    private static void assertClosedByPeer(Socket s) throws IOException {
        s.setSoTimeout((int) WAIT.toMillis());
        InputStream in = s.getInputStream();
        try {
            assertThat(in.read()).isEqualTo(-1);
        } catch (java.net.SocketException e) {
            assertThat(e.getMessage()).containsIgnoringCase("reset"); // closed with unread input: RST
        }
    }

    private double rejectedTotal() {
        double sum = 0;
        for (AckRejection r : AckRejection.values()) {
            sum += metrics.rejectedCount(r);
        }
        return sum;
    }

    private Socket connect() throws IOException {
        Socket s = new Socket(listener.address().getAddress(), listener.address().getPort());
        sockets.add(s);
        return s;
    }

    private static AckFrame ack(long sequence) {
        return new AckFrame(RUN, sequence, ProbeKind.NORMAL, 0, 0);
    }
}

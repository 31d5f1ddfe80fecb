package io.lanemq.dialtest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.support.Ticker;
import io.lanemq.testkit.net.PortFuzzer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The dial test's ack port under hostile input (seeded, reproducible): random bytes, cut frames, frames declaring
 * huge lengths, and a flood of idle connections beyond the cap, while a well-behaved sender keeps delivering.
 */
class AckListenerFuzzTest {
    private static final long SEED = 20261125L;
    private static final long RUN = 77;
    private static final Duration WAIT = Duration.ofSeconds(15);

    private final DialTestMetrics metrics = new DialTestMetrics(new SimpleMeterRegistry());
    private final List<AckFrame> received = new CopyOnWriteArrayList<>();
    private final AckCodec codec = new AckCodec(AckCodecTest.SECRET);

    @Test
    void hostileInputIsRefusedAndARealSenderIsServedDuringAndAfter() throws Exception {
        AckSink sink = (frame, nanos) -> {
            received.add(frame);
            return AckSink.Outcome.MATCHED;
        };
        // The cap and idle timeout the dial test runs with (DialTestRun): what a flood meets in production.
        try (AckListener listener = AckListener.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                AckCodecTest.SECRET, sink, metrics, Ticker.system(), 16, Duration.ofMinutes(5))) {
            PortFuzzer fuzz = PortFuzzer.against(listener.address(), SEED);
            byte[] frame = codec.encode(new AckFrame(RUN, 1, ProbeKind.NORMAL, 0, 0));
            long start = System.nanoTime();

            PortFuzzer.Counts counts = hostile(fuzz, frame);
            int accepted = fuzz.flood(1_000, () -> deliver(listener, 1_000));

            assertThat(counts.hung()).as("connections the listener left open: %s", counts).isZero();
            assertThat(counts.tried()).isEqualTo(350);
            assertThat(accepted).as("flood connections accepted by the kernel").isPositive();
            deliver(listener, 2_000);
            assertThat(received).extracting(AckFrame::sequence).as("only the real sender's acks").containsExactly(1_000L, 2_000L);
            assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start)).as("short enough for every build").isLessThan(20);
            // Measured after the round above: classes, the pool's threads and the JIT's first allocations are not kept
            // per connection.
            long kept = PortFuzzer.heapKeptPerConnection(() -> hostile(fuzz, frame).tried() + fuzz.flood(1_000, () -> { }));
            System.out.printf("AckListenerFuzzTest: %s, flood 1,000 (%d accepted), heap kept after GC %d B per connection%n",
                    counts, accepted, kept);
            assertThat(kept).as("heap kept per closed hostile connection").isLessThan(PortFuzzer.HEAP_KEPT_PER_CLOSED_CONNECTION);
        }
    }

    private static PortFuzzer.Counts hostile(PortFuzzer fuzz, byte[] frame) throws Exception {
        byte[] hugeLength = ByteBuffer.allocate(8).putInt(Integer.MAX_VALUE).putInt(0).array();
        return fuzz.randomBytes(200, 4096).plus(fuzz.truncated(frame, 100)).plus(fuzz.truncated(hugeLength, 50));
    }

    /** A sender as TcpAckSender is: connect when there is an ack, write it, retry on a fresh connection until it lands. */
    private void deliver(AckListener listener, long sequence) {
        int before = received.size();
        await().atMost(WAIT).pollInterval(Duration.ofMillis(200)).until(() -> {
            try (Socket s = new Socket()) {
                s.connect(listener.address(), 1_000);
                OutputStream out = s.getOutputStream();
                out.write(codec.encode(new AckFrame(RUN, sequence, ProbeKind.NORMAL, 0, 0)));
                out.flush();
                s.shutdownOutput();
                s.setSoTimeout(2_000);
                s.getInputStream().read(); // the listener closes after our end of stream, or refused us at once
            } catch (IOException refusedOrReset) {
                // tried again
            }
            return received.size() > before;
        });
    }
}

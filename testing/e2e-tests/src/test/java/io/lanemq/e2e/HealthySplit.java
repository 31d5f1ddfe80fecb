package io.lanemq.e2e;

import io.lanemq.localstack.SendOutcome;
import io.lanemq.localstack.SendStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;

/** The precondition of the fault tests, not their subject: both IDCs healthy and sharing a stream's sends. */
final class HealthySplit {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    private HealthySplit() {
    }

    /**
     * Waits until the stream has run 4 s and its sends started 3 s to 1 s ago all succeeded, 35-65% of them on
     * {@code cluster} (the JIT and first connections make the first seconds slower, and a baseline there would flatter
     * any figure taken during a fault).
     */
    static void await(SendStream stream, String cluster, Duration atMost) {
        Awaitility.await().atMost(atMost).pollInterval(Duration.ofMillis(250)).until(() -> {
            long now = stream.nowNanos();
            List<SendOutcome> recent = stream.startedBetween(now - 3 * SECOND, now - SECOND);
            double share = SendStream.shareOf(recent, cluster);
            return now > 4 * SECOND && SendStream.successRate(recent) == 1.0 && share >= 0.35 && share <= 0.65;
        });
    }
}

package io.lanemq.dialtest;

import io.lanemq.testkit.RocketMqStack;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/** What the dial test's integration tests share: the stack's broker settings and a quick probing configuration. */
final class ItSupport {

    private static final AtomicInteger SEQUENCE = new AtomicInteger();
    private static final String RUN = Long.toString(System.currentTimeMillis() % 1_000_000, 36);
    private static RocketMqStack sharedStack;

    private ItSupport() {
    }

    /**
     * One stack with the dial test's broker settings ({@link EmbeddedStack#dualIdc()}) for the tests of this JVM that
     * neither kill nor stop its nodes, started on first use and killed when the JVM exits (its store is temporary).
     * A stack takes 5-18 s to start here; each test on it probes a topic and group of its own ({@link #config()}), so
     * it sees no other test's probes. A test that partitions an IDC heals it before it ends.
     */
    static synchronized RocketMqStack sharedStack() {
        if (sharedStack == null) {
            RocketMqStack started = RocketMqStack.start(EmbeddedStack.dualIdc());
            Runtime.getRuntime().addShutdownHook(new Thread(started::close, "dialtest-it-shared-stack-stop"));
            sharedStack = started;
        }
        return sharedStack;
    }

    /** A fast configuration on a topic and group of its own; the caller adds the name servers. */
    static DialTestOptions.Builder config() {
        String unique = RUN + "-" + SEQUENCE.incrementAndGet();
        return DialTestOptions.builder().ratePerSecond(20).bodySize(256).period(Duration.ofSeconds(2))
            .grace(Duration.ofSeconds(15)).delay(Duration.ofSeconds(1)).checkBackAllowance(Duration.ofSeconds(15))
            .sendTimeout(Duration.ofSeconds(10))
            .probeTopic("dialtest_it_" + unique.replace('-', '_')).consumerGroup("dialtest-it-" + unique)
            .metricsAddress(new InetSocketAddress("127.0.0.1", 0));
    }

    /** Collects each period's report. */
    static final class Reports implements java.util.function.Consumer<Report> {
        final List<Report> all = new CopyOnWriteArrayList<>();

        @Override
        public void accept(Report report) {
            all.add(report);
            System.out.print(LiveTable.period(report, 1.0));
        }

        int size() {
            return all.size();
        }
    }
}

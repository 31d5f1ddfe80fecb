package io.lanemq.dialtest;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/** What the dial test's integration tests share: the stack's broker settings and a quick probing configuration. */
final class ItSupport {

    private static final AtomicInteger SEQUENCE = new AtomicInteger();
    private static final String RUN = Long.toString(System.currentTimeMillis() % 1_000_000, 36);

    private ItSupport() {
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

package io.lanemq.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.config.ConsumptionMode;
import io.lanemq.core.metrics.SdkMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * What the SDK records in Micrometer's global registry, readable by a test class: attached before its
 * first test, detached after its last. Register it as a static field with {@code @RegisterExtension}.
 */
final class GlobalMeters extends SimpleMeterRegistry implements BeforeAllCallback, AfterAllCallback {
    @Override
    public void beforeAll(ExtensionContext context) {
        Metrics.globalRegistry.add(this);
    }

    /** Send attempts the SDK made on {@code cluster} for {@code logicTopic} so far, acknowledged or failed. */
    double sendAttempts(String logicTopic, String cluster) {
        return find(SdkMetrics.SENDS).tag(SdkMetrics.TAG_LOGIC_TOPIC, logicTopic).tag(SdkMetrics.TAG_CLUSTER, cluster)
                .counters().stream().mapToDouble(Counter::count).sum();
    }

    /** Sends of {@code logicTopic} by {@code application} that failed over to another cluster so far (an attempt failed or abandoned). */
    double failovers(String application, String logicTopic) {
        return find(SdkMetrics.FAILOVERS).tag(SdkMetrics.TAG_APPLICATION, application).tag(SdkMetrics.TAG_LOGIC_TOPIC, logicTopic)
                .counters().stream().mapToDouble(Counter::count).sum();
    }

    /**
     * The value of the one gauge {@code name} of consumer group {@code group} with these further tags (key, value, ...);
     * an assertion fails when none or several match, so a meter the SDK stopped registering cannot pass for 0.
     */
    double gauge(String name, String group, String... tags) {
        Collection<Gauge> found = find(name).tag(SdkMetrics.TAG_GROUP, group).tags(tags).gauges();
        assertThat(found).as("gauges %s of group %s with %s", name, group, List.of(tags)).hasSize(1);
        return found.iterator().next().value();
    }

    /** Whether the one subscription of {@code group} consumes in {@code mode} now, as its mode gauge says. */
    boolean consumesIn(String group, ConsumptionMode mode) {
        return gauge(SdkMetrics.CONSUMER_MODE, group, SdkMetrics.TAG_MODE, mode.name().toLowerCase(Locale.ROOT)) == 1.0;
    }

    /** Streams of {@code group} to the consumer proxy that ended or were refused so far, by gRPC status. */
    Map<String, Double> proxyStreamEnds(String group) {
        return find(SdkMetrics.PROXY_STREAM_ENDS).tag(SdkMetrics.TAG_GROUP, group).counters().stream()
                .collect(Collectors.toMap(c -> c.getId().getTag(SdkMetrics.TAG_STATUS), Counter::count, Double::sum));
    }

    /** Requests and the messages they carried, through the batch gathering of {@code application}'s producers. */
    long[] gatheredRequestsAndMessages(String application) {
        Collection<DistributionSummary> found = find(SdkMetrics.BATCH_MESSAGES).tag(SdkMetrics.TAG_APPLICATION, application)
                .summaries();
        return new long[] {found.stream().mapToLong(DistributionSummary::count).sum(),
                (long) found.stream().mapToDouble(DistributionSummary::totalAmount).sum()};
    }

    /** Configuration changes {@code application} applied so far. */
    double reloadsApplied(String application) {
        return find(SdkMetrics.CONFIG_RELOADS).tag(SdkMetrics.TAG_APPLICATION, application).tag(SdkMetrics.TAG_OUTCOME, "applied")
                .counters().stream().mapToDouble(Counter::count).sum();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        Metrics.globalRegistry.remove(this);
    }
}

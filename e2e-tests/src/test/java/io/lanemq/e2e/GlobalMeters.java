package io.lanemq.e2e;

import io.lanemq.core.metrics.SdkMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
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

    @Override
    public void afterAll(ExtensionContext context) {
        Metrics.globalRegistry.remove(this);
    }
}

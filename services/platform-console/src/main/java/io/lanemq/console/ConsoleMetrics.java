package io.lanemq.console;

import io.lanemq.config.InvalidPlatformConfigException;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.etcd.EtcdException;
import io.lanemq.config.store.ConfigStore;
import io.lanemq.config.store.Published;
import io.lanemq.console.change.Configs;
import io.lanemq.console.change.IdcState;
import io.lanemq.support.NamedThreads;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The platform configuration's state as meters, for the dashboards' annotations: its etcd revision (it changes with
 * every publish, from the console, the config tool or around both) and, per IDC, whether the published document
 * drains it. Read from etcd every few seconds on the thread {@code lanemq-console-metrics}, not from the console's
 * own publishes, so a change made anywhere shows. Closed by its starter.
 */
public final class ConsoleMetrics implements AutoCloseable {
    /** Gauge: the configuration key's etcd modification revision; NaN until first read or while there is no document. */
    public static final String CONFIG_REVISION = "lanemq.console.config.revision";
    /** Gauge per IDC: 1 while the published document drains it (routes point there, none with weight), else 0. */
    public static final String IDC_DRAINED = "lanemq.console.idc.drained";
    /** The configuration's etcd key. */
    public static final String TAG_KEY = "key";
    /** An IDC, as the clusters of the document name it. */
    public static final String TAG_IDC = "idc";

    private static final Logger log = LoggerFactory.getLogger(ConsoleMetrics.class);

    private final ConfigStore store;
    private final AtomicLong revision = new AtomicLong(-1);
    private final MultiGauge drained;
    private final ScheduledExecutorService refresher = Executors.newSingleThreadScheduledExecutor(
            NamedThreads.single("lanemq-console-metrics"));
    private volatile String lastProblem;

    private ConsoleMetrics(ConfigStore store, MeterRegistry registry) {
        this.store = store;
        Gauge.builder(CONFIG_REVISION, revision, r -> r.get() < 0 ? Double.NaN : r.get()).tag(TAG_KEY, store.key())
                .description("etcd modification revision of the platform configuration's key").register(registry);
        this.drained = MultiGauge.builder(IDC_DRAINED).description("1 while the published configuration drains the IDC")
                .register(registry);
    }

    /** Registers the meters on {@code registry} and reads etcd every {@code interval}, the first time at once. */
    static ConsoleMetrics start(ConfigStore store, MeterRegistry registry, Duration interval) {
        ConsoleMetrics metrics = new ConsoleMetrics(store, registry);
        metrics.refresher.scheduleWithFixedDelay(metrics::refresh, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
        return metrics;
    }

    void refresh() {
        try {
            Published now = store.current();
            if (!now.exists()) {
                revision.set(-1);
                drained.register(List.of(), true);
                return;
            }
            PlatformConfig config = Configs.parse(now.yaml(), store.describe());
            List<IdcState> idcs = IdcState.all(config, now.yaml(), store.describe());
            drained.register(idcs.stream().map(s -> MultiGauge.Row.of(Tags.of(TAG_KEY, store.key(), TAG_IDC, s.idc()),
                    s.drained() ? 1 : 0)).toList(), true);
            revision.set(now.revision());
            lastProblem = null;
        } catch (EtcdException | InvalidPlatformConfigException | RuntimeException e) {
            // The last values stay; /readyz reports etcd itself. Logged once per distinct problem, so logs stay bounded.
            String problem = e.getClass().getSimpleName() + ": " + e.getMessage();
            if (!problem.equals(lastProblem)) {
                log.warn("console metrics: cannot read {}: {}", store.describe(), problem);
                lastProblem = problem;
            }
        }
    }

    @Override
    public void close() {
        refresher.shutdownNow();
    }
}

package io.lanemq.console.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.dialtest.DialTestMetrics;
import java.util.List;
import org.junit.jupiter.api.Test;

class HealthSeriesTest {
    @Test
    void theSeriesReadAreSpelledAsTheDialTestAndTheSdkExportThem() {
        assertThat(DialTestMetrics.prometheusNames()).contains(HealthSeries.PROBES_SENT, HealthSeries.PROBES_LOST,
                HealthSeries.PROBES_DUPLICATED, HealthSeries.PROBE_LATENCY_BUCKET);
        assertThat(HealthSeries.LAST_RELOAD_FAILED).isEqualTo(SdkMetrics.CONFIG_LAST_RELOAD_FAILED.replace('.', '_'));
        assertThat(HealthSeries.RELOADS).isEqualTo(SdkMetrics.CONFIG_RELOADS.replace('.', '_') + "_total");
    }

    @Test
    void readsLabelsWithEscapesSkipsCommentsAndWhatIsNotASample() {
        List<PrometheusText.Sample> samples = PrometheusText.parse(String.join("\n",
                "# HELP x help",
                "# TYPE x counter",
                "x_total{cluster=\"a\\\"b\",kind=\"normal\",} 3.0 1700000000",
                "garbage line without value",
                "bucket{le=\"+Inf\"} +Inf",
                "plain 7"));

        assertThat(samples).extracting(PrometheusText.Sample::name).containsExactly("x_total", "bucket", "plain");
        assertThat(samples.get(0).labels()).containsEntry("cluster", "a\"b").containsEntry("kind", "normal");
        assertThat(samples.get(0).value()).isEqualTo(3.0);
        assertThat(samples.get(1).value()).isInfinite();
    }

    @Test
    void p99IsTheUpperBoundOfTheBucketHoldingIt() {
        String lane = "cluster=\"c\",broker=\"b\",kind=\"normal\"";
        List<LaneFigures> lanes = HealthSeries.lanes(PrometheusText.parse(String.join("\n",
                HealthSeries.PROBES_SENT + "{" + lane + "} 1000",
                HealthSeries.PROBE_LATENCY_BUCKET + "{" + lane + ",le=\"0.01\"} 900",
                HealthSeries.PROBE_LATENCY_BUCKET + "{" + lane + ",le=\"0.05\"} 985",
                HealthSeries.PROBE_LATENCY_BUCKET + "{" + lane + ",le=\"0.2\"} 1000",
                HealthSeries.PROBE_LATENCY_BUCKET + "{" + lane + ",le=\"+Inf\"} 1000")));

        assertThat(lanes).singleElement().satisfies(l -> {
            assertThat(l.sent()).isEqualTo(1000);
            assertThat(l.p99Seconds()).as("990th of 1000 is above 985 (0.05) and within 0.2").isEqualTo(0.2);
            assertThat(l.healthy()).isTrue();
        });
    }
}

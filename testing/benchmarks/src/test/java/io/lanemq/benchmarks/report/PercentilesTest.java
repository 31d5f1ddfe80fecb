package io.lanemq.benchmarks.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class PercentilesTest {

    @Test
    void belowAHundredSamplesTheP99IsTheMaximum() {
        long[] twenty = LongStream.rangeClosed(1, 20).toArray();

        assertThat(Percentiles.nearestRank(twenty, 0.99)).as("not the second largest").isEqualTo(20);
        assertThat(Percentiles.nearestRank(twenty, 0.50)).isEqualTo(10);
    }

    @Test
    void theRankIsTheSmallestSampleWithThatShareAtOrBelowIt() {
        long[] hundred = LongStream.rangeClosed(1, 100).toArray();
        long[] twoHundred = LongStream.rangeClosed(1, 200).toArray();

        assertThat(Percentiles.nearestRank(hundred, 0.99)).isEqualTo(99);
        assertThat(Percentiles.nearestRank(twoHundred, 0.99)).as("0.99 x 200 is 198, whatever the doubles say").isEqualTo(198);
        assertThat(Percentiles.nearestRank(new long[] {7}, 0.5)).isEqualTo(7);
        assertThat(Percentiles.nearestRank(hundred, 1.0)).isEqualTo(100);
    }

    @Test
    void noSamplesOrAQuantileOutsideZeroToOneIsRefused() {
        assertThatThrownBy(() -> Percentiles.nearestRank(new long[0], 0.99)).hasMessage("no samples");
        assertThatThrownBy(() -> Percentiles.nearestRank(new long[] {1}, 0)).hasMessageContaining("quantile");
        assertThatThrownBy(() -> Percentiles.nearestRank(new long[] {1}, 99)).hasMessageContaining("quantile");
    }
}

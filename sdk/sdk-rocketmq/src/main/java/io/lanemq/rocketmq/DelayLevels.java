package io.lanemq.rocketmq;

import java.time.Duration;

/**
 * RocketMQ's delay levels, as its brokers define them by default ({@code messageDelayLevel}: 1s 5s 10s 30s 1m ... 2h):
 * the only delays a message sent back to the retry topic can wait. A back-off's delay becomes the nearest level.
 */
final class DelayLevels {
    private static final long[] MILLIS = {1_000, 5_000, 10_000, 30_000, 60_000, 120_000, 180_000, 240_000, 300_000,
            360_000, 420_000, 480_000, 540_000, 600_000, 1_200_000, 1_800_000, 3_600_000, 7_200_000};

    private DelayLevels() {
    }

    /** The level (1-based) whose delay is nearest {@code delay}; the shorter one on a tie. */
    static int nearest(Duration delay) {
        long millis = delay.toMillis();
        int best = 0;
        for (int i = 1; i < MILLIS.length; i++) {
            if (Math.abs(MILLIS[i] - millis) < Math.abs(MILLIS[best] - millis)) {
                best = i;
            }
        }
        return best + 1;
    }

    /** The delay of a level. */
    static Duration of(int level) {
        return Duration.ofMillis(MILLIS[level - 1]);
    }
}

package io.lanemq.core.internal.produce;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class AdaptiveLingerTest {
    private final AtomicLong now = new AtomicLong();
    private final AdaptiveLinger lingers = new AdaptiveLinger(now::get);

    @Test
    void aQueueSeenForTheFirstTimeSendsAtOnce() {
        assertThat(lingers.worthWaiting("orders")).as("a new queue, e.g. a new sharding key, is never held").isFalse();
        assertThat(lingers.worthWaiting("orders")).as("nor its next send within the retry interval").isFalse();
    }

    @Test
    void aLingerIsTriedAgainAfterTheRetryIntervalAndKeptWhileItGathers() {
        lingers.worthWaiting("orders");
        now.addAndGet(AdaptiveLinger.RETRY_NANOS);

        assertThat(lingers.worthWaiting("orders")).as("tried once a second").isTrue();
        lingers.lingered("orders", 3);
        assertThat(lingers.worthWaiting("orders")).as("it gathered two others: linger on").isTrue();
        lingers.lingered("orders", 2);
        assertThat(lingers.worthWaiting("orders")).isTrue();
    }

    @Test
    void lingersThatGatherNothingStopUntilTheNextTry() {
        lingers.worthWaiting("orders");
        now.addAndGet(AdaptiveLinger.RETRY_NANOS);
        lingers.worthWaiting("orders");
        lingers.lingered("orders", 2);
        for (int i = 0; i < 6; i++) {
            lingers.lingered("orders", 1);
        }
        assertThat(lingers.worthWaiting("orders")).as("a few lingers that gathered nothing do not stop a stream").isTrue();
        lingers.lingered("orders", 1);

        assertThat(lingers.worthWaiting("orders")).as("seven in a row: the stream has thinned").isFalse();
        now.addAndGet(AdaptiveLinger.RETRY_NANOS - 1);
        assertThat(lingers.worthWaiting("orders")).isFalse();
        now.addAndGet(1);
        assertThat(lingers.worthWaiting("orders")).as("tried again a second after the last try").isTrue();
    }

    @Test
    void queuesAreJudgedApart() {
        lingers.worthWaiting("a");
        lingers.worthWaiting("b");
        now.addAndGet(AdaptiveLinger.RETRY_NANOS);
        lingers.worthWaiting("a");
        lingers.lingered("a", 4);

        assertThat(lingers.worthWaiting("a")).isTrue();
        lingers.worthWaiting("b");
        lingers.lingered("b", 1);
        assertThat(lingers.worthWaiting("b")).isFalse();
    }
}

package io.lanemq.delay.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lanemq.api.SendFailedException;
import io.lanemq.api.SendResult;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** A delivery is settled only once its broker stored it as configured; otherwise it fails and is delivered again. */
class StoredAsConfiguredTest {

    @Test
    void aDeliveryNotYetFlushedOrReplicatedFailsSoTheEngineDeliversItAgain() {
        SendResult notFlushed = new SendResult("id-1", "reminders", "cluster-a", "reminders", 0, 7, Optional.empty(), false);

        assertThatThrownBy(() -> ClusterDelayService.requireStoredAsConfigured(notFlushed))
                .isInstanceOf(CompletionException.class).cause().isInstanceOf(SendFailedException.class)
                .hasMessageContaining("message id-1 is stored but not yet flushed or replicated");
    }

    @Test
    void aDeliveryStoredAsConfiguredSettles() {
        SendResult stored = new SendResult("id-2", "reminders", "cluster-a", "reminders", 0, 8, Optional.empty());
        assertThat(ClusterDelayService.requireStoredAsConfigured(stored)).isSameAs(stored);
    }
}

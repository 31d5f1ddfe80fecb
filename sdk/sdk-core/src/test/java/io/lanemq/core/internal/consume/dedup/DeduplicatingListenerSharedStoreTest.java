package io.lanemq.core.internal.consume.dedup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.Deduplication;
import io.lanemq.api.DeduplicationStore;
import io.lanemq.api.MessageListener;
import io.lanemq.api.ReceivedMessage;
import io.lanemq.api.Subscription;
import io.lanemq.api.spi.BoundMessage;
import io.lanemq.core.internal.consume.listener.DeliveredMessage;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.support.FakeClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The local window in front of a shared store: what the store says decides, and a store that fails loses nothing. */
class DeduplicatingListenerSharedStoreTest {
    private static final String KEY = "billing:orders:id-1";

    private final FakeClock clock = new FakeClock();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final SdkMetrics metrics = new SdkMetrics(registry, "test");
    private final FakeStore store = new FakeStore();
    private final List<String> processed = new ArrayList<>();

    @Test
    void aMessageTheStoreKnowsAsDoneIsDroppedWithoutTheListenerAndRememberedLocally() {
        store.values.put(KEY, "DONE");
        MessageListener listener = wrap(m -> ConsumeResult.SUCCESS);

        assertThat(listener.consume(message("id-1"))).isEqualTo(ConsumeResult.SUCCESS);
        assertThat(listener.consume(message("id-1"))).isEqualTo(ConsumeResult.SUCCESS);

        assertThat(processed).as("processed by another instance").isEmpty();
        assertThat(dropped()).isEqualTo(2);
        assertThat(store.calls).as("the second copy is answered by the local window").hasSize(1);
        assertThat(store.calls.get(0)).startsWith("claim " + KEY + " as ");
    }

    @Test
    void aMessageClaimedElsewhereIsRetriedLaterAndNotHeldLocally() {
        store.values.put(KEY, "RUNNING:other-instance:1");
        MessageListener listener = wrap(m -> ConsumeResult.SUCCESS);

        assertThat(listener.consume(message("id-1"))).isEqualTo(ConsumeResult.RETRY_LATER);
        store.values.remove(KEY); // the other instance failed and released it
        assertThat(listener.consume(message("id-1"))).as("its retry, asking the store again").isEqualTo(ConsumeResult.SUCCESS);

        assertThat(processed).containsExactly("id-1");
        assertThat(store.values).containsEntry(KEY, "DONE");
    }

    @Test
    void aSuccessIsRecordedDoneInTheStoreForTheWindow() {
        MessageListener listener = wrap(m -> ConsumeResult.SUCCESS);

        listener.consume(message("id-1"));

        assertThat(store.calls).hasSize(2);
        assertThat(store.calls.get(0)).startsWith("claim " + KEY + " as ").endsWith(" for PT2M");
        assertThat(store.calls.get(1)).isEqualTo("done " + KEY + " for PT10M");
    }

    @Test
    void aFailureReleasesTheClaimItTookSoAnotherInstanceMayProcessTheRetry() {
        MessageListener listener = wrap(m -> {
            throw new IllegalStateException("database down");
        });

        assertThatThrownBy(() -> listener.consume(message("id-1"))).hasMessage("database down");

        String owner = store.calls.get(0).split(" ")[3];
        assertThat(store.calls).as("released with the claim's own owner").containsExactly(store.calls.get(0), "release " + KEY + " of " + owner);
        assertThat(store.values).doesNotContainKey(KEY);
        assertThat(wrap(m -> ConsumeResult.SUCCESS).consume(message("id-1"))).isEqualTo(ConsumeResult.SUCCESS);
        assertThat(processed).hasSize(2);
    }

    @Test
    void anUnreachableStoreLetsTheMessageThroughAndCountsEachFailedCall() {
        store.unreachable = true;
        List<ConsumeResult> answers = new ArrayList<>(List.of(ConsumeResult.RETRY_LATER, ConsumeResult.SUCCESS));
        MessageListener listener = wrap(m -> answers.remove(0));

        assertThat(listener.consume(message("id-1"))).as("processed without the store").isEqualTo(ConsumeResult.RETRY_LATER);
        assertThat(listener.consume(message("id-1"))).isEqualTo(ConsumeResult.SUCCESS);
        assertThat(listener.consume(message("id-1"))).as("the local window still works").isEqualTo(ConsumeResult.SUCCESS);

        assertThat(processed).hasSize(2);
        assertThat(failures("claim")).as("one claim per attempt the window did not know").isEqualTo(2);
        assertThat(failures("done")).isEqualTo(1);
        assertThat(failures("release")).as("no claim was taken, so none released").isZero();
        assertThat(dropped()).isEqualTo(1);
    }

    @Test
    void aStoreThatFailsOnlyOnReleaseLeavesTheClaimToItsTtlAndTheFailureGoesOn() {
        store.failRelease = true;
        MessageListener listener = wrap(m -> ConsumeResult.RETRY_LATER);

        assertThat(listener.consume(message("id-1"))).isEqualTo(ConsumeResult.RETRY_LATER);

        assertThat(failures("release")).isEqualTo(1);
        assertThat(store.values.get(KEY)).as("left to expire").startsWith("RUNNING:");
    }

    @Test
    void storeSettingsAreCheckedAsTheyAreGiven() {
        Deduplication base = Deduplication.byMessageId(Duration.ofMinutes(1));
        assertThatThrownBy(() -> base.withStore(null)).hasMessageContaining("deduplication store");
        assertThatThrownBy(() -> base.withClaimTtl(Duration.ZERO)).hasMessageContaining("claimTtl must be positive, was PT0S");
        assertThat(base.claimTtl()).isEqualTo(Deduplication.DEFAULT_CLAIM_TTL);
        assertThat(base.withStore(store).store()).containsSame(store);
        assertThat(base.withStore(store)).isEqualTo(base.withStore(store)).isNotEqualTo(base);
    }

    private MessageListener wrap(Function<ReceivedMessage, ConsumeResult> answer) {
        Subscription subscription = Subscription.builder("orders", "billing")
                .deduplicate(Deduplication.byMessageId(Duration.ofMinutes(10)).withStore(store)).build();
        return DeduplicatingListener.wrap(subscription, message -> {
            processed.add(message.messageId());
            return answer.apply(message);
        }, metrics, clock);
    }

    private double dropped() {
        return registry.get(SdkMetrics.DUPLICATES_DROPPED).tag(SdkMetrics.TAG_GROUP, "billing").counter().count();
    }

    private double failures(String operation) {
        return registry.get(SdkMetrics.DEDUP_STORE_FAILURES).tag(SdkMetrics.TAG_GROUP, "billing")
                .tag(SdkMetrics.TAG_OPERATION, operation).counter().count();
    }

    private static ReceivedMessage message(String id) {
        BoundMessage bound = new BoundMessage(id, "orders_cluster-a", "body".getBytes(StandardCharsets.UTF_8), List.of(),
                Optional.empty(), Map.of(), Optional.empty(), "broker-0", 0, 0L, 1, 0L);
        return new DeliveredMessage("orders", "cluster-a", bound);
    }

    /** Values as the Redis store keeps them ("RUNNING:owner", "DONE"), without expiry; records each call. */
    private static final class FakeStore implements DeduplicationStore {
        final Map<String, String> values = new HashMap<>();
        final List<String> calls = new ArrayList<>();
        boolean unreachable;
        boolean failRelease;

        @Override
        public synchronized Claim claim(String key, String owner, Duration ttl) {
            check();
            calls.add("claim " + key + " as " + owner + " for " + ttl);
            String before = values.putIfAbsent(key, "RUNNING:" + owner);
            return before == null ? Claim.CLAIMED : before.equals("DONE") ? Claim.DONE : Claim.RUNNING;
        }

        @Override
        public synchronized void done(String key, Duration window) {
            check();
            calls.add("done " + key + " for " + window);
            values.put(key, "DONE");
        }

        @Override
        public synchronized void release(String key, String owner) {
            check();
            if (failRelease) {
                throw new IllegalStateException("connection reset");
            }
            calls.add("release " + key + " of " + owner);
            values.remove(key, "RUNNING:" + owner);
        }

        private void check() {
            if (unreachable) {
                throw new IllegalStateException("store unreachable: connect timed out");
            }
        }
    }
}

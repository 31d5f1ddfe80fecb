package io.lanemq.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.api.InvalidConfigurationException;
import org.junit.jupiter.api.Test;

/** Which documents a watching source hands its listener, and as what. */
class SnapshotDeliveryTest {
    private final RecordingListener listener = new RecordingListener();

    @Test
    void anUnchangedDocumentIsDroppedAndAChangedOneDelivered() {
        SnapshotDelivery delivery = new SnapshotDelivery(new PlatformConfigParser(), listener, ConfigDocuments.weights(50, 50));

        assertThat(delivery.offer(ConfigDocuments.weights(50, 50), "file:/p.yaml")).as("the baseline again").isFalse();
        assertThat(delivery.offer(ConfigDocuments.weights(70, 30), "file:/p.yaml")).isTrue();
        assertThat(delivery.offer(ConfigDocuments.weights(70, 30), "file:/p.yaml")).isFalse();

        assertThat(listener.changes()).extracting(ConfigDocuments::weightOfA).containsExactly(70);
    }

    @Test
    void anInvalidDocumentIsRejectedWithKeyAndLineAndTheGoodOneAfterItIsDeliveredEvenIfUnchanged() {
        SnapshotDelivery delivery = new SnapshotDelivery(new PlatformConfigParser(), listener, ConfigDocuments.weights(50, 50));

        delivery.offer(ConfigDocuments.UNKNOWN_CLUSTER, "file:/p.yaml");
        delivery.offer(ConfigDocuments.weights(50, 50), "file:/p.yaml");

        assertThat(listener.rejections()).singleElement().satisfies(e -> assertThat(e).hasMessageContaining(
                ConfigDocuments.UNKNOWN_CLUSTER_PROBLEM));
        assertThat(listener.changes()).as("the bad state is over").extracting(ConfigDocuments::weightOfA).containsExactly(50);
    }

    @Test
    void aMissingDocumentIsRejectedOnceUntilOneCanBeReadAgain() {
        SnapshotDelivery delivery = new SnapshotDelivery(new PlatformConfigParser(), listener, ConfigDocuments.weights(50, 50));
        InvalidConfigurationException gone = new InvalidConfigurationException("file:/p.yaml is gone");

        assertThat(delivery.offerAbsent(gone, "file:/p.yaml")).isTrue();
        assertThat(delivery.offerAbsent(gone, "file:/p.yaml")).isFalse();
        assertThat(delivery.offer(ConfigDocuments.weights(50, 50), "file:/p.yaml")).isTrue();

        assertThat(listener.rejections()).containsExactly(gone);
        assertThat(listener.changes()).hasSize(1);
    }

    @Test
    void aListenerThatThrowsDoesNotStopTheDeliveriesAfterIt() {
        SnapshotDelivery delivery = new SnapshotDelivery(new PlatformConfigParser(), new ConfigListener() {
            @Override
            public void onChange(PlatformConfig next) {
                listener.onChange(next);
                throw new IllegalStateException("listener bug");
            }

            @Override
            public void onRejected(InvalidConfigurationException reason) {
                listener.onRejected(reason);
            }
        }, null);

        assertThat(delivery.offer(ConfigDocuments.weights(60, 40), "etcd:/lanemq@7")).isTrue();
        assertThat(delivery.offer(ConfigDocuments.weights(80, 20), "etcd:/lanemq@8")).isTrue();

        assertThat(listener.changes()).extracting(ConfigDocuments::weightOfA).containsExactly(60, 80);
    }
}

package io.lanemq.api.spi;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * A producer on one cluster.
 *
 * @param cluster                 where to send
 * @param producerGroup           the group (transaction check-backs go to any live member)
 * @param sendTimeout             how long one send may wait for the broker
 * @param maxBodyBytes            the largest body the binding must accept
 * @param transactionCheckHandler answers check-backs; empty for a producer that sends no transactions
 */
public record BoundProducerSpec(ClusterEndpoint cluster, String producerGroup, Duration sendTimeout, int maxBodyBytes,
                                Optional<TransactionCheckHandler> transactionCheckHandler) {
    public BoundProducerSpec {
        Objects.requireNonNull(cluster, "cluster");
        Objects.requireNonNull(producerGroup, "producerGroup");
        Objects.requireNonNull(sendTimeout, "sendTimeout");
        Objects.requireNonNull(transactionCheckHandler, "transactionCheckHandler");
    }
}

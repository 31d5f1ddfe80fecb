package io.lanemq.api;

import java.util.Optional;

/**
 * How one {@link Producer} behaves. Immutable; cluster routing, timeouts and limits come from the
 * platform configuration, not from here.
 *
 * <pre>{@code
 * ProducerOptions options = ProducerOptions.builder()
 *     .producerGroup("checkout-tx")
 *     .transactionChecker(prepared -> orders.isPaid(prepared.keys().get(0))
 *         ? TransactionResolution.COMMIT : TransactionResolution.ROLLBACK)
 *     .build();
 * }</pre>
 */
public final class ProducerOptions {
    private static final ProducerOptions DEFAULTS = builder().build();

    private final String producerGroup;
    private final TransactionChecker transactionChecker;

    private ProducerOptions(Builder builder) {
        this.producerGroup = builder.producerGroup;
        this.transactionChecker = builder.transactionChecker;
    }

    /** No transaction checker; the producer group defaults to the application name. */
    public static ProducerOptions defaults() {
        return DEFAULTS;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The producer group; empty means "{@code <applicationName>-producer}". */
    public Optional<String> producerGroup() {
        return Optional.ofNullable(producerGroup);
    }

    public Optional<TransactionChecker> transactionChecker() {
        return Optional.ofNullable(transactionChecker);
    }

    /** Builds {@link ProducerOptions}; not thread-safe. */
    public static final class Builder {
        private String producerGroup;
        private TransactionChecker transactionChecker;

        private Builder() {
        }

        /** Producers of one group share transaction check-backs; name it per transactional use. */
        public Builder producerGroup(String producerGroup) {
            this.producerGroup = Names.requireName("producerGroup", producerGroup);
            return this;
        }

        public Builder transactionChecker(TransactionChecker transactionChecker) {
            if (transactionChecker == null) {
                throw new IllegalArgumentException("transactionChecker must not be null");
            }
            this.transactionChecker = transactionChecker;
            return this;
        }

        public ProducerOptions build() {
            return new ProducerOptions(this);
        }
    }
}

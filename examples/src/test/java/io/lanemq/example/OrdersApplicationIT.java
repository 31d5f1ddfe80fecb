package io.lanemq.example;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.localstack.LaneMqTest;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The application as its team would test it, on Spring Boot's dependency management and the embedded dual-IDC
 * platform: a paid order sent as an object reaches billing as that object, plainly and through a transaction.
 */
@LaneMqTest(topics = "order-paid:billing,ledger")
@SpringBootTest
class OrdersApplicationIT {
    @Autowired
    Checkout checkout;
    @Autowired
    Billing billing;
    @Autowired
    Ledger ledger;

    @Test
    void aPaidOrderReachesBillingAsTheObjectSentPlainlyAndInATransaction() throws Exception {
        OrderPaid plain = new OrderPaid(1, new BigDecimal("19.90"), Instant.parse("2026-11-25T01:00:00Z"));
        OrderPaid transactional = new OrderPaid(2, new BigDecimal("5.00"), Instant.parse("2026-11-25T01:00:01Z"));

        checkout.paid(plain);
        checkout.paidInTransaction(transactional);

        await().atMost(Duration.ofSeconds(60)).until(() -> billing.charged().size() == 2);
        assertThat(billing.charged()).containsEntry(1L, plain).containsEntry(2L, transactional);
    }

    @Test
    void aBurstOfOrdersReachesTheLedgerInBatchesEachOrderBookedOnce() throws Exception {
        for (long id = 100; id < 200; id++) {
            checkout.paid(new OrderPaid(id, BigDecimal.ONE, Instant.parse("2026-11-25T02:00:00Z")));
        }

        await().atMost(Duration.ofSeconds(60)).until(() -> ledger.booked().keySet().containsAll(
                java.util.stream.LongStream.range(100, 200).boxed().toList()));
        assertThat(ledger.batchSizes()).as("at most batchSize per call; a burst of 100 fills batches of more than one")
                .allSatisfy(size -> assertThat(size).isBetween(1, 16))
                .anySatisfy(size -> assertThat(size).isGreaterThan(1));
    }
}

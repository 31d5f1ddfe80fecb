package io.lanemq.example;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.CancelOutcome;
import io.lanemq.api.Lane;
import io.lanemq.api.MessageContext;
import io.lanemq.delay.server.DelayServer;
import io.lanemq.delay.server.DelayServerOptions;
import io.lanemq.localstack.LaneMqTest;
import io.lanemq.localstack.LocalPlatformExtension;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The application as its team would test it, on Spring Boot's dependency management and the embedded dual-IDC
 * platform (with a delay server, as the platform team runs one): a paid order sent as an object reaches billing as
 * that object, plainly and through a transaction; the ledger books a burst in batches; a reminder is delayed, and a
 * cancelled one never arrives; a lane's mark travels with its reminder.
 */
@LaneMqTest(topics = {"order-paid:billing,ledger", "order-reminder:notifier"}, delay = true)
@SpringBootTest
class OrdersApplicationIT {
    @TempDir
    static Path delayStore;
    static DelayServer delayServer;

    @Autowired
    Checkout checkout;
    @Autowired
    Billing billing;
    @Autowired
    Ledger ledger;
    @Autowired
    Reminders reminders;

    @BeforeAll
    static void startDelayServer() throws Exception {
        delayServer = DelayServer.start(DelayServerOptions.builder(System.getProperty(LocalPlatformExtension.CONFIG_LOCATION_PROPERTY),
                delayStore).metricsPort(-1).build());
    }

    @AfterAll
    static void stopDelayServer() {
        if (delayServer != null) {
            delayServer.close();
        }
    }

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
                LongStream.range(100, 200).boxed().toList()));
        assertThat(ledger.batchSizes()).as("at most batchSize per call; a burst of 100 fills batches of more than one")
                .allSatisfy(size -> assertThat(size).isBetween(1, 16))
                .anySatisfy(size -> assertThat(size).isGreaterThan(1));
    }

    @Test
    void aReminderArrivesAfterItsDelayInItsLaneAndACancelledOneNever() throws Exception {
        OrderPaid unpaid = new OrderPaid(300, BigDecimal.TEN, Instant.parse("2026-11-25T03:00:00Z"));
        OrderPaid paidMeanwhile = new OrderPaid(301, BigDecimal.TEN, Instant.parse("2026-11-25T03:00:00Z"));
        Instant scheduled = Instant.now();
        String kept;
        try (MessageContext.Scope lane = MessageContext.none().withLane(Lane.of("A.X")).enter()) {
            kept = reminders.remindLater(unpaid, Duration.ofSeconds(4));
        }
        String cancelled = reminders.remindLater(paidMeanwhile, Duration.ofSeconds(2));

        assertThat(reminders.cancel(cancelled)).isEqualTo(CancelOutcome.CANCELLED);
        await().atMost(Duration.ofSeconds(60)).until(() -> reminders.reminded().containsKey(300L));
        Reminders.Reminded arrived = reminders.reminded().get(300L);
        assertThat(Duration.between(scheduled, arrived.at())).as("not before its delay").isGreaterThanOrEqualTo(Duration.ofSeconds(4));
        assertThat(arrived.lane()).as("the lane of the context it was scheduled in").isEqualTo(Optional.of(Lane.of("A.X")));
        assertThat(reminders.reminded()).as("the cancelled reminder was due 2 s before the kept one arrived")
                .doesNotContainKey(301L);
        assertThat(reminders.cancel(kept)).as("too late to cancel a delivered reminder").isEqualTo(CancelOutcome.ALREADY_DELIVERED);
    }
}

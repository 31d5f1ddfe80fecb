package io.lanemq.example;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.localstack.InMemoryPlatform;
import io.lanemq.localstack.LaneMqTest;
import io.lanemq.spring.LaneMqListenerRegistry;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The same application as {@code OrdersApplicationIT}, as a unit-level test: the starter runs it on the in-memory
 * binding (two clusters, one per IDC), so it starts and exchanges messages in milliseconds, and a test can make an
 * IDC fail. What RocketMQ itself does (brokers, offsets, delays) is left to the IT on the embedded platform.
 */
@LaneMqTest(mode = LaneMqTest.Mode.IN_MEMORY, topics = {"order-paid:billing,ledger", "order-reminder:notifier"})
@SpringBootTest
class OrdersApplicationInMemoryTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    @Autowired
    Checkout checkout;
    @Autowired
    Billing billing;
    @Autowired
    LaneMqListenerRegistry listeners;

    @Test
    void aPaidOrderReachesBillingAsTheObjectSentPlainlyAndInATransaction() throws Exception {
        OrderPaid plain = new OrderPaid(1, new BigDecimal("19.90"), Instant.parse("2026-11-25T01:00:00Z"));
        OrderPaid transactional = new OrderPaid(2, new BigDecimal("5.00"), Instant.parse("2026-11-25T01:00:01Z"));
        long start = System.nanoTime();

        checkout.paid(plain);
        checkout.paidInTransaction(transactional);

        await().atMost(WAIT).until(() -> billing.charged().containsKey(1L) && billing.charged().containsKey(2L));
        System.out.printf("in memory: two orders sent and charged in %d ms%n", (System.nanoTime() - start) / 1_000_000);
        assertThat(billing.charged()).containsEntry(1L, plain).containsEntry(2L, transactional);
    }

    @Test
    void ordersStillReachBillingWhileIdcBFailsEverySend(InMemoryPlatform platform) throws Exception {
        platform.clusterB().failSends();
        try {
            for (long id = 100; id < 120; id++) {
                checkout.paid(new OrderPaid(id, BigDecimal.ONE, Instant.parse("2026-11-25T02:00:00Z")));
            }
            await().atMost(WAIT).until(() -> billing.charged().keySet().containsAll(LongStream.range(100, 120).boxed().toList()));
            assertThat(platform.clusterA().stored("order-paid_a")).as("IDC A took every order IDC B refused").hasSizeGreaterThanOrEqualTo(20);
        } finally {
            platform.clusterB().recover();
        }
    }

    @Test
    void aPausedBillingListenerChargesNothingUntilResumed() throws Exception {
        listeners.pause("billing.onPaid");
        try {
            checkout.paid(new OrderPaid(300, BigDecimal.TEN, Instant.parse("2026-11-25T03:00:00Z")));
            await().during(Duration.ofMillis(300)).atMost(WAIT).until(() -> !billing.charged().containsKey(300L));
        } finally {
            listeners.resume("billing.onPaid");
        }
        await().atMost(WAIT).until(() -> billing.charged().containsKey(300L));
    }
}

package io.lanemq.core.internal.lane.forward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.Status;
import io.lanemq.api.ConsumeResult;
import io.lanemq.api.ReceivedMessage;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The client against a real server on 127.0.0.1: what goes through, and every way a forward fails. */
class LaneForwardClientTest {
    private final ForwardFixture fixture = new ForwardFixture();

    @AfterEach
    void closeAll() throws Exception {
        fixture.close();
    }

    @Test
    void everyFieldArrivesAsSent() throws Exception {
        List<Received> received = new CopyOnWriteArrayList<>();
        LaneForwardServer server = fixture.server((group, topic, message) -> {
            received.add(new Received(group, topic, message));
            return ConsumeResult.SUCCESS;
        });
        LaneForwardClient client = fixture.client();
        ForwardedMessage full = ForwardFixture.fullMessage();
        ForwardedMessage bare = ForwardFixture.bareMessage();

        assertThat(client.forward(server.address(), "billing", full)).isEqualTo(ConsumeResult.SUCCESS);
        assertThat(client.forward(server.address(), "audit", bare)).isEqualTo(ConsumeResult.SUCCESS);

        assertThat(received).hasSize(2);
        assertThat(received.get(0).group()).isEqualTo("billing");
        assertThat(received.get(0).topic()).isEqualTo("order-paid");
        assertThat(received.get(0).message()).isEqualTo(full);
        assertThat(received.get(0).message().body()).containsExactly(0, 1, 2, 0xff, 42);
        assertThat(received.get(0).message().properties()).containsEntry("lane", "A.X").containsEntry("empty", "");
        assertThat(received.get(1).group()).isEqualTo("audit");
        assertThat(received.get(1).message()).as("absent tag and sharding key stay absent, not empty strings")
                .isEqualTo(bare);
        assertThat(received.get(1).message().tag()).isEmpty();
        assertThat(received.get(1).message().shardingKey()).isEmpty();
        assertThat(fixture.served("billing", "success")).isEqualTo(1);
        assertThat(fixture.calls("billing", "success")).isEqualTo(1);
    }

    @Test
    void aBodyAtThePlatformsDefaultLimitFitsAndALargerMessageThanTheServerAllowsIsRefused() throws Exception {
        List<Integer> sizes = new CopyOnWriteArrayList<>();
        LaneForwardServer server = fixture.server(ForwardFixture.serverSettings().build(),
                (group, topic, message) -> {
                    sizes.add(message.body().length);
                    return ConsumeResult.SUCCESS;
                });
        LaneForwardClient client = fixture.client();
        int fourMiB = 4 * 1024 * 1024;

        assertThat(client.forward(server.address(), "billing", withBody(new byte[fourMiB]))).isEqualTo(ConsumeResult.SUCCESS);
        // The server refuses it mid-stream; gRPC reports that as the server's status or as the stream's reset.
        assertThatThrownBy(() -> client.forward(server.address(), "billing", withBody(new byte[6 * 1024 * 1024])))
                .isInstanceOfSatisfying(LaneForwardException.class,
                        e -> assertThat(e.code()).isIn(Status.Code.RESOURCE_EXHAUSTED, Status.Code.CANCELLED));
        assertThat(sizes).containsExactly(fourMiB);
        assertThat(client.forward(server.address(), "billing", ForwardFixture.fullMessage()))
                .as("the connection still serves").isEqualTo(ConsumeResult.SUCCESS);
    }

    @Test
    void theListenersResultIsTheAnswer() throws Exception {
        LaneForwardServer server = fixture.server((group, topic, message) ->
                message.keys().contains("retry") ? ConsumeResult.RETRY_LATER : ConsumeResult.SUCCESS);
        LaneForwardClient client = fixture.client();

        assertThat(client.forward(server.address(), "billing", withKeys("retry"))).isEqualTo(ConsumeResult.RETRY_LATER);
        assertThat(client.forward(server.address(), "billing", withKeys("fine"))).isEqualTo(ConsumeResult.SUCCESS);

        assertThat(fixture.served("billing", "retry_later")).isEqualTo(1);
        assertThat(fixture.served("billing", "success")).isEqualTo(1);
        assertThat(fixture.calls("billing", "retry_later")).isEqualTo(1);
    }

    @Test
    void aListenerThatThrowsIsAnsweredRetryLater() throws Exception {
        LaneForwardServer server = fixture.server((group, topic, message) -> {
            throw new IllegalStateException("listener bug");
        });

        assertThat(fixture.client().forward(server.address(), "billing", ForwardFixture.fullMessage()))
                .isEqualTo(ConsumeResult.RETRY_LATER);
        assertThat(fixture.served("billing", "retry_later")).isEqualTo(1);
    }

    @Test
    void aGroupTheTargetDoesNotConsumeIsNotFound() throws Exception {
        LaneForwardServer server = fixture.server((group, topic, message) -> {
            throw new UnknownGroupException(group, topic);
        });

        assertThatThrownBy(() -> fixture.client().forward(server.address(), "ghosts", ForwardFixture.fullMessage()))
                .isInstanceOfSatisfying(LaneForwardException.class,
                        e -> assertThat(e.code()).isEqualTo(Status.Code.NOT_FOUND))
                .hasMessageContaining("ghosts").hasMessageContaining(server.address().toString())
                .hasMessageContaining("no consumer of group ghosts on logic topic order-paid");
        assertThat(fixture.rejected(LaneForwardMetrics.REASON_UNKNOWN_GROUP)).isEqualTo(1);
        assertThat(fixture.calls("ghosts", "not_found")).isEqualTo(1);
    }

    @Test
    void aClosedServerIsUnavailableAtOnceNotAfterTheDeadline() throws Exception {
        LaneForwardServer server = fixture.server((group, topic, message) -> ConsumeResult.SUCCESS);
        LaneForwardClient client = fixture.client(ForwardFixture.clientSettings().callDeadline(Duration.ofSeconds(30)).build());
        assertThat(client.forward(server.address(), "billing", ForwardFixture.fullMessage())).isEqualTo(ConsumeResult.SUCCESS);

        server.close();
        long start = System.nanoTime();
        assertThatThrownBy(() -> client.forward(server.address(), "billing", ForwardFixture.fullMessage()))
                .isInstanceOfSatisfying(LaneForwardException.class,
                        e -> assertThat(e.code()).isEqualTo(Status.Code.UNAVAILABLE))
                .hasMessageContaining(server.address().toString()).hasMessageContaining("billing");
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        System.out.println("forward to a closed server failed after " + millis + " ms");
        assertThat(millis).as("refused connection, not the 30 s deadline").isLessThan(10_000);
        assertThat(fixture.rejected(LaneForwardMetrics.REASON_HANDSHAKE)).as("a good client's connection is no failure")
                .isZero();
    }

    @Test
    void aTargetBackOnItsAddressIsReachedAtOnce() throws Exception {
        LaneForwardServer first = fixture.server((group, topic, message) -> ConsumeResult.SUCCESS);
        InetSocketAddress address = first.address();
        LaneForwardClient client = fixture.client();
        client.forward(address, "billing", ForwardFixture.fullMessage());
        first.close();
        assertThatThrownBy(() -> client.forward(address, "billing", ForwardFixture.fullMessage()))
                .isInstanceOf(LaneForwardException.class);

        fixture.server(ForwardFixture.serverSettings().port(address.getPort()).build(),
                (group, topic, message) -> ConsumeResult.SUCCESS);

        // The channel's reconnect backoff is reset for a target asked for again, so no wait for it.
        assertThat(client.forward(address, "billing", ForwardFixture.fullMessage())).isEqualTo(ConsumeResult.SUCCESS);
    }

    @Test
    void aListenerSlowerThanTheDeadlineIsDeadlineExceeded() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        LaneForwardServer server = fixture.server((group, topic, message) -> {
            awaitQuietly(release);
            return ConsumeResult.SUCCESS;
        });
        LaneForwardClient client = fixture.client(ForwardFixture.clientSettings().callDeadline(Duration.ofMillis(300)).build());
        try {
            long start = System.nanoTime();
            assertThatThrownBy(() -> client.forward(server.address(), "billing", ForwardFixture.fullMessage()))
                    .isInstanceOfSatisfying(LaneForwardException.class,
                            e -> assertThat(e.code()).isEqualTo(Status.Code.DEADLINE_EXCEEDED));
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            System.out.println("a 300 ms deadline ended the call after " + millis + " ms");
            assertThat(millis).isGreaterThanOrEqualTo(290);
            assertThat(fixture.calls("billing", "deadline_exceeded")).isEqualTo(1);
        } finally {
            release.countDown();
        }
    }

    @Test
    void aChannelUnusedForTheIdleTimeoutIsClosed() throws Exception {
        AtomicLong nanos = new AtomicLong();
        LaneForwardServer one = fixture.server((group, topic, message) -> ConsumeResult.SUCCESS);
        LaneForwardServer two = fixture.server((group, topic, message) -> ConsumeResult.SUCCESS);
        LaneForwardClient client = fixture.remember(new LaneForwardClient(ForwardFixture.clientSettings()
                .idleTimeout(Duration.ofMinutes(5)).build(), fixture.clientMeters, nanos::get));

        client.forward(one.address(), "billing", ForwardFixture.fullMessage());
        client.forward(two.address(), "billing", ForwardFixture.fullMessage());
        assertThat(client.openChannels()).isEqualTo(2);

        nanos.addAndGet(Duration.ofMinutes(4).toNanos());
        client.forward(two.address(), "billing", ForwardFixture.fullMessage());
        assertThat(client.openChannels()).as("both used within 5 minutes").isEqualTo(2);

        nanos.addAndGet(Duration.ofMinutes(2).toNanos());
        client.forward(two.address(), "billing", ForwardFixture.fullMessage());
        assertThat(client.openChannels()).as("the first idle 6 minutes").isEqualTo(1);

        assertThat(client.forward(one.address(), "billing", ForwardFixture.fullMessage()))
                .as("an evicted target is dialled again").isEqualTo(ConsumeResult.SUCCESS);
    }

    @Test
    void concurrentForwardsShareOneChannelAndAllArrive() throws Exception {
        LaneForwardServer server = fixture.server(ForwardFixture.serverSettings().threads(4).queueCapacity(64).build(),
                (group, topic, message) -> ConsumeResult.SUCCESS);
        LaneForwardClient client = fixture.client();
        int callers = 8;
        int perCaller = 200;
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        try {
            client.forward(server.address(), "billing", ForwardFixture.fullMessage());
            long start = System.nanoTime();
            List<Future<Integer>> done = new ArrayList<>();
            for (int c = 0; c < callers; c++) {
                done.add(pool.submit(() -> {
                    int succeeded = 0;
                    for (int i = 0; i < perCaller; i++) {
                        if (client.forward(server.address(), "billing", ForwardFixture.fullMessage()) == ConsumeResult.SUCCESS) {
                            succeeded++;
                        }
                    }
                    return succeeded;
                }));
            }
            int succeeded = 0;
            for (Future<Integer> future : done) {
                succeeded += future.get(60, TimeUnit.SECONDS);
            }
            long millis = Math.max(1, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
            System.out.printf("%d forwards from %d threads in %d ms: %d per second%n", succeeded, callers, millis,
                    succeeded * 1000L / millis);

            assertThat(succeeded).isEqualTo(callers * perCaller);
            assertThat(fixture.served("billing", "success")).isEqualTo(callers * perCaller + 1);
            assertThat(client.openChannels()).isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aClosedClientRefusesToForward() throws Exception {
        LaneForwardServer server = fixture.server((group, topic, message) -> ConsumeResult.SUCCESS);
        LaneForwardClient client = fixture.client();
        client.close();

        assertThatThrownBy(() -> client.forward(server.address(), "billing", ForwardFixture.fullMessage()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
    }

    static ForwardedMessage withBody(byte[] body) {
        ForwardedMessage m = ForwardFixture.fullMessage();
        return new ForwardedMessage(m.messageId(), m.logicTopic(), body, m.keys(), m.tag(), m.properties(),
                m.shardingKey(), m.cluster(), m.physicalTopic(), m.queueId(), m.queueOffset(), m.deliveryAttempt(),
                m.bornTimestamp());
    }

    private static ForwardedMessage withKeys(String key) {
        ForwardedMessage m = ForwardFixture.fullMessage();
        return new ForwardedMessage(m.messageId(), m.logicTopic(), m.body(), List.of(key), m.tag(), m.properties(),
                m.shardingKey(), m.cluster(), m.physicalTopic(), m.queueId(), m.queueOffset(), m.deliveryAttempt(),
                m.bornTimestamp());
    }

    static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private record Received(String group, String topic, ReceivedMessage message) {
    }
}

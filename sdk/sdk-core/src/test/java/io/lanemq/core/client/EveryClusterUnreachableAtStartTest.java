package io.lanemq.core.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.ClientHealth;
import io.lanemq.api.ClientHealth.ClusterState;
import io.lanemq.api.ClientOptions;
import io.lanemq.api.ConsumeResult;
import io.lanemq.api.Message;
import io.lanemq.api.MessagingException;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.api.ReceivedMessage;
import io.lanemq.api.SendResult;
import io.lanemq.api.Subscription;
import io.lanemq.support.Ticker;
import io.lanemq.testkit.memory.MemoryBinding;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every cluster unreachable when the client starts (issue 28): the client, its producer and its subscription start;
 * health shows every cluster DOWN; a send fails within its timeout naming each cluster and why; the consumer attaches
 * to the first cluster that comes back and the producer sends there, without a restart.
 */
class EveryClusterUnreachableAtStartTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    /** {@link CoreClientHealthTest#PLATFORM}'s send timeout. */
    private static final Duration SEND_TIMEOUT = Duration.ofMillis(1000);

    @TempDir
    Path dir;

    private final MemoryBinding binding = new MemoryBinding();
    private final List<ReceivedMessage> received = new CopyOnWriteArrayList<>();
    private CoreMessagingClient client;

    @AfterEach
    void close() {
        if (client != null) {
            client.close();
        }
        binding.close();
    }

    @Test
    void theClientStartsSendsFailNamingEachClusterAndWhyAndTheFirstClusterBackIsConsumedAndSentTo() throws Exception {
        // A's starts take 200 ms to fail (a slow refusal), B's fail at once.
        binding.cluster("cluster-a").stallStarts(Duration.ofMillis(200));
        binding.cluster("cluster-b").failStarts();
        Path config = Files.writeString(dir.resolve("platform.yaml"), CoreClientHealthTest.PLATFORM
                + "    consumerGroups:\n      billing: {}\n", StandardCharsets.UTF_8);

        long clientStartAt = System.nanoTime();
        client = CoreMessagingClient.start(ClientOptions.builder("outage-test").configLocation("file:" + config).build(),
                new SimpleMeterRegistry(), ObservationRegistry.NOOP, Ticker.system(), Clock.systemUTC(), Optional.of(binding));
        // The producer's and subscription's starts are what an unreachable cluster could hold up; the client's own
        // start (reading the document, a cold JVM's class loading) asks no cluster.
        long startedAt = System.nanoTime();
        Producer producer = client.createProducer(ProducerOptions.defaults());
        long producerAt = System.nanoTime();
        client.subscribe(Subscription.builder("orders", "billing").build(), message -> {
            received.add(message);
            return ConsumeResult.SUCCESS;
        });
        Duration toReady = Duration.ofNanos(System.nanoTime() - startedAt);
        System.out.printf("every cluster unreachable: producer and subscription started in %d ms (producer %d ms; the "
                + "client before them %d ms)%n", toReady.toMillis(), (producerAt - startedAt) / 1_000_000,
                (startedAt - clientStartAt) / 1_000_000);
        assertThat(toReady).as("the start waits for no cluster longer than the subscription's first-answer wait")
                .isLessThan(Duration.ofSeconds(2));

        await().atMost(WAIT).untilAsserted(() -> assertThat(client.health().clusters())
                .as("the unattached consumer makes each cluster DOWN, with why")
                .allSatisfy(cluster -> {
                    assertThat(cluster.state()).isEqualTo(ClusterState.DOWN);
                    assertThat(cluster.reason()).hasValueSatisfying(why -> assertThat(why).contains("billing"));
                }));

        long sendAt = System.nanoTime();
        assertThatThrownBy(() -> send(producer)).isInstanceOf(MessagingException.class)
                .hasMessageContaining("every cluster tried failed: ")
                .hasMessageContaining("cluster-a: cannot start producer group").hasMessageContaining("cluster-b: cannot start producer group");
        Duration failedIn = Duration.ofNanos(System.nanoTime() - sendAt);
        System.out.printf("every cluster unreachable: a send failed in %d ms%n", failedIn.toMillis());
        assertThat(failedIn).as("within the send timeout").isLessThanOrEqualTo(SEND_TIMEOUT.plusMillis(250));

        binding.cluster("cluster-b").recover();
        long healedAt = System.nanoTime();
        // A new group starts from the newest offset: what matters is that it attaches, then consumes what is sent.
        await().atMost(WAIT).until(() -> !binding.cluster("cluster-b").openConsumers().isEmpty());
        long attachedAt = System.nanoTime();
        SendResult sent = sendUntilOneIsStored(producer);
        long storedAt = System.nanoTime();
        assertThat(sent.cluster()).isEqualTo("cluster-b");
        await().atMost(WAIT).until(() -> !received.isEmpty());
        System.out.printf("every cluster unreachable: B attached %d ms after it came back; the first send then stored in %d ms "
                        + "and consumed %d ms later%n", (attachedAt - healedAt) / 1_000_000, (storedAt - attachedAt) / 1_000_000,
                (System.nanoTime() - storedAt) / 1_000_000);
        assertThat(received).singleElement().satisfies(message -> assertThat(message.cluster()).isEqualTo("cluster-b"));
        assertThat(binding.cluster("cluster-a").openConsumers()).as("A is still down").isEmpty();
        ClientHealth health = client.health();
        assertThat(health.cluster("cluster-a").orElseThrow().state()).isEqualTo(ClusterState.DOWN);
    }

    private static SendResult send(Producer producer) throws MessagingException {
        return producer.send(Message.builder("orders").body("o".getBytes(StandardCharsets.UTF_8)).build());
    }

    /** Sends until one is stored: the failover may still pick the cluster that is down first, and each failure moves on. */
    private static SendResult sendUntilOneIsStored(Producer producer) throws MessagingException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            try {
                return send(producer);
            } catch (MessagingException stillDown) {
                assertThat(System.nanoTime() - deadline).as("no send stored by " + WAIT + ": " + stillDown).isNegative();
            }
        }
    }
}

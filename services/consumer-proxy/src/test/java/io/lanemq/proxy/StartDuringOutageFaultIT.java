package io.lanemq.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.Message;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.localstack.LocalPlatform;
import io.lanemq.proxy.protocol.Delivery;
import io.lanemq.testkit.Idc;
import io.lanemq.testkit.net.NetworkFaults;
import io.lanemq.testkit.net.NetworkFaults.Direction;
import io.lanemq.testkit.net.NetworkFaults.Fault;
import io.micrometer.core.instrument.Counter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A consumer proxy started while IDC B is silent (its name server and broker drop every packet, both ways, from before
 * the start): the proxy serves and its first consumer's subscription starts the group within 2 s; IDC A's messages are
 * delivered at once, IDC B is named as not fetched; after the heal the group fetches IDC B within 5 s without a
 * restart (the failed attempts counted), and every acknowledged send is delivered. Runs in its own network namespace
 * (bin/netns/bin/java), where the rules live.
 */
class StartDuringOutageFaultIT {
    private static final long FAULT_MS = 5_000;
    private static final long AFTER_HEAL_MS = 4_000;
    private static final long SEND_EVERY_MS = 20;

    @Test
    void aProxyStartedWhileIdcBIsSilentDeliversIdcAAtOnceAndFetchesIdcBAfterTheHeal() throws Exception {
        try (NetworkFaults faults = NetworkFaults.open()) {
            String topic = LocalPlatform.unique("proxy-outage");
            String group = LocalPlatform.unique("proxy-outage");
            LocalPlatform platform = ProxyHarness.platform().addTopic(topic, 4, 50, 50, group);
            Idc victim = platform.idcB();
            String healthy = platform.idcA().clusterName();
            String silent = victim.clusterName();
            try {
                Fault fault = faults.drop("partition of " + victim.name(), victim.ports(), Direction.BOTH);
                boolean healed = false;
                Deque<AutoCloseable> opened = new ArrayDeque<>();
                long begin = System.nanoTime();
                try (ConsumerProxyServer proxy = ConsumerProxyServer.start(ProxyHarness.config(platform, b -> b))) {
                    long serving = System.nanoTime() - begin;
                    long subscribing = System.nanoTime();
                    TestConsumer consumer = ProxyHarness.consumer(proxy, "outage", d -> true).subscribe(ProxyHarness.APPLICATION,
                            group, topic, 64);
                    opened.push(consumer);
                    await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10))
                            .until(() -> consumer.subscribed.get() != null);
                    long subscribed = System.nanoTime() - subscribing;
                    long faultEnds = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(FAULT_MS);
                    assertThat(proxy.detachedClusters()).as("clusters the group does not fetch while IDC B is silent")
                            .anyMatch(line -> line.contains("on cluster " + silent + ": not attached since"))
                            .noneMatch(line -> line.contains("on cluster " + healthy + ":"));

                    Map<String, String> acknowledged = new ConcurrentHashMap<>();
                    AtomicInteger failedSends = new AtomicInteger();
                    AtomicInteger sequence = new AtomicInteger();
                    // The application sending starts in the outage too, as in a real one (everything restarts).
                    MessagingClient client = platform.client("proxy-outage-sender");
                    opened.push(client);
                    Producer producer = client.createProducer(ProducerOptions.defaults());
                    opened.push(producer);
                    ScheduledExecutorService sender = Executors.newSingleThreadScheduledExecutor();
                    opened.push(sender::shutdownNow);
                    long sendingFrom = System.nanoTime();
                    sender.scheduleAtFixedRate(() -> producer.sendAsync(Message.builder(topic).keys("o" + sequence.incrementAndGet())
                            .body("outage".getBytes(StandardCharsets.UTF_8)).build()).whenComplete((result, failure) -> {
                                if (failure == null) {
                                    acknowledged.put(result.messageId(), result.cluster());
                                } else {
                                    failedSends.incrementAndGet();
                                }
                            }), 0, SEND_EVERY_MS, TimeUnit.MILLISECONDS);
                    await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10))
                            .until(() -> fromCluster(consumer, healthy) > 0);
                    long firstFromA = System.nanoTime() - sendingFrom;
                    await().atMost(Duration.ofMillis(FAULT_MS + 10_000)).until(() -> System.nanoTime() - faultEnds >= 0);
                    double unreachable = attempts(proxy, silent, SdkMetrics.AttachOutcome.UNREACHABLE);
                    fault.heal();
                    healed = true;
                    long healedAt = System.nanoTime();
                    await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                            .until(() -> proxy.detachedClusters().isEmpty());
                    long attached = System.nanoTime() - healedAt;
                    await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20))
                            .until(() -> fromCluster(consumer, silent) > 0);
                    long firstFromB = System.nanoTime() - healedAt;
                    await().atMost(Duration.ofMillis(AFTER_HEAL_MS + 10_000)).until(() -> System.nanoTime() - healedAt
                            >= TimeUnit.MILLISECONDS.toNanos(AFTER_HEAL_MS));
                    sender.shutdown();
                    assertThat(sender.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
                    // Sends in flight at the shutdown complete within the send timeout.
                    await().atMost(Duration.ofSeconds(10)).until(() -> acknowledged.size() + failedSends.get() == sequence.get());
                    await().atMost(Duration.ofSeconds(30)).until(() -> consumer.acked.stream().map(Delivery::getMessageId)
                            .collect(Collectors.toSet()).containsAll(acknowledged.keySet()));
                    Set<String> delivered = consumer.acked.stream().map(Delivery::getMessageId).collect(Collectors.toSet());
                    long duplicated = consumer.acked.size() - delivered.size();
                    long onB = acknowledged.values().stream().filter(silent::equals).count();
                    System.out.printf("Consumer proxy started while %s silent: serving in %d ms, its first consumer's group "
                                    + "started in %d ms; first delivery from %s %d ms after the sends began; %.0f failed attach "
                                    + "attempts on %s before the heal; fetching %s %d ms after the heal, first delivery from it %d "
                                    + "ms after the heal; %d acknowledged sends (%d on %s), %d failed, all delivered (0 lost), %d "
                                    + "delivered twice%n", victim.name(), TimeUnit.NANOSECONDS.toMillis(serving),
                            TimeUnit.NANOSECONDS.toMillis(subscribed), healthy, TimeUnit.NANOSECONDS.toMillis(firstFromA),
                            unreachable, silent, silent, TimeUnit.NANOSECONDS.toMillis(attached),
                            TimeUnit.NANOSECONDS.toMillis(firstFromB), acknowledged.size(), onB, silent, failedSends.get(),
                            duplicated);

                    // The proxy's own start contacts no cluster, so the fault cannot lengthen it: bounded against a hang only.
                    assertThat(serving).as("proxy serving (ns)").isLessThanOrEqualTo(TimeUnit.SECONDS.toNanos(5));
                    assertThat(subscribed).as("the group started for its first consumer (ns)")
                            .isLessThanOrEqualTo(TimeUnit.SECONDS.toNanos(2));
                    assertThat(firstFromA).as("first delivery from %s after the sends began (ns)", healthy)
                            .isLessThanOrEqualTo(TimeUnit.SECONDS.toNanos(2));
                    assertThat(unreachable).as("failed attach attempts on %s, counted", silent).isPositive();
                    assertThat(attached).as("%s fetched after the heal (ns)", silent).isLessThanOrEqualTo(TimeUnit.SECONDS.toNanos(5));
                    assertThat(attempts(proxy, silent, SdkMetrics.AttachOutcome.ATTACHED)).isEqualTo(1);
                } finally {
                    for (AutoCloseable each : opened) {
                        each.close();
                    }
                    if (!healed) {
                        fault.heal();
                    }
                }
            } finally {
                platform.close();
            }
        }
    }

    private static long fromCluster(TestConsumer consumer, String cluster) {
        return consumer.acked.stream().filter(d -> d.getCluster().equals(cluster)).count();
    }

    private static double attempts(ConsumerProxyServer proxy, String cluster, SdkMetrics.AttachOutcome outcome) {
        return proxy.meters().find(SdkMetrics.CONSUMER_ATTACH_ATTEMPTS).tag(SdkMetrics.TAG_CLUSTER, cluster)
                .tag(SdkMetrics.TAG_OUTCOME, outcome.tagValue()).counters().stream().mapToDouble(Counter::count).sum();
    }
}

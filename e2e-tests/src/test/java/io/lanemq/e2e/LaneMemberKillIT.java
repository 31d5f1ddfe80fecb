package io.lanemq.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.ClientOptions;
import io.lanemq.api.ConsumeResult;
import io.lanemq.api.Consumer;
import io.lanemq.api.Lane;
import io.lanemq.api.LaneOptions;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.api.Subscription;
import io.lanemq.core.client.CoreMessagingClient;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.localstack.LocalPlatform;
import io.lanemq.testkit.RocketMqStack;
import io.lanemq.testkit.tls.SelfSignedCertificate;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * kill -9 of the only lane-A member of a consumer group while lane-A and base messages flow: the lane-A
 * member runs in a child JVM ({@link LaneMemberMain}), the base member in this one, on the shared dual-IDC
 * brokers. Nothing is lost: what the lane member had not acknowledged when it died comes again, and once the
 * brokers drop it from the group, its lane's messages fall back to the base member.
 */
class LaneMemberKillIT {
    private static final String TOPIC = "lane-kill";
    private static final String TOKEN = "lane-kill-it-token-0123456789";
    private static final Lane LANE_A = Lane.of("A");
    private static final int RATE_PER_LANE = 25;
    /**
     * How often the base member reads the group's members from the brokers (the default): until its next read after
     * the kill, it still sees the dead member and forwards lane A to it.
     */
    private static final Duration BASE_REFRESH = Duration.ofSeconds(2);
    /**
     * Sending starts when one of the base member's reads first shows lane A, so the kill, one and a half refresh
     * intervals later, falls halfway between two reads: about a second in which lane-A messages reach the base
     * member while it still lists the dead member, whatever the load.
     */
    private static final Duration KILL_AFTER = BASE_REFRESH.multipliedBy(3).dividedBy(2);
    private static final Duration SEND_FOR = Duration.ofSeconds(8);
    /** The lane member's: short, so it sees the base member soon after it starts. */
    private static final Duration MEMBER_REFRESH = Duration.ofMillis(300);
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    /** One run of the base member's listener: the key, the lane the message was sent in, its attempt, and when. */
    private record BaseConsumption(String key, Optional<Lane> lane, int attempt, long nanos) {
        boolean inLaneA() {
            return lane.equals(Optional.of(LANE_A));
        }
    }

    @Test
    void nothingIsLostWhenTheOnlyMemberOfALaneIsKilledAndItsMessagesFallBackToTheBase() throws Exception {
        String group = LocalPlatform.unique("lane-kill");
        LocalPlatform platform = LocalPlatform.on(RocketMqStack.shared()).addTopic(TOPIC, 4, 50, 50, group);
        Path config = platform.writeConfig();
        Subscription subscription = Subscription.builder(TOPIC, group).build();
        SimpleMeterRegistry baseRegistry = new SimpleMeterRegistry();
        Queue<BaseConsumption> consumedByBase = new ConcurrentLinkedQueue<>();
        try (CoreMessagingClient baseMember = CoreMessagingClient.start(ClientOptions.builder("lane-kill-base")
                     .configLocation(config.toString()).lanes(laneOptions(BASE_REFRESH)).build(), baseRegistry);
             Consumer ignoredConsumer = baseMember.subscribe(subscription, message -> {
                 consumedByBase.add(new BaseConsumption(message.keys().get(0), message.lane(), message.deliveryAttempt(),
                         System.nanoTime()));
                 return ConsumeResult.SUCCESS;
             });
             MessagingClient senderClient = platform.client("lane-kill-sender");
             Producer producer = senderClient.createProducer(ProducerOptions.defaults());
             LaneMemberProcess laneMember = LaneMemberProcess.launch(Path.of("target", "lane-member-kill", group), config,
                     TOPIC, group, LANE_A.path(), TOKEN, MEMBER_REFRESH)) {
            laneMember.awaitReady(DEADLINE);
            await().atMost(DEADLINE).pollInterval(Duration.ofMillis(10)).until(() -> baseMember.lanesWithMembers(subscription)
                    .orElseThrow().contains(Optional.of(LANE_A)));

            long sendStart = System.nanoTime();
            long killNanos;
            AtomicLong lastSeenWithLaneA = new AtomicLong();
            long laneDroppedNanos;
            Map<SdkMetrics.LaneOutcome, Double> routedBeforeKill;
            List<LaneMemberProcess.Consumed> consumedByLaneMember;
            TwoLaneSender sender = new TwoLaneSender(producer, TOPIC, LANE_A, RATE_PER_LANE);
            try {
                await().atMost(DEADLINE).pollInterval(Duration.ofMillis(20)).until(() -> since(sendStart).compareTo(KILL_AFTER) >= 0
                        && laneMember.consumed().stream().anyMatch(c -> c.lane().equals(LANE_A.path())));
                routedBeforeKill = routed(baseRegistry);
                long pid = laneMember.pid();
                killNanos = System.nanoTime();
                assertThat(laneMember.kill()).as("the lane member exits on SIGKILL").isTrue();
                assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).as("process %d after SIGKILL", pid).isEmpty();
                consumedByLaneMember = laneMember.consumed();
                // Until the brokers drop the dead member from the group, the base member must wait, not fall back.
                await().atMost(DEADLINE).pollInterval(Duration.ofMillis(10)).until(() -> {
                    long before = System.nanoTime();
                    boolean listed = baseMember.lanesWithMembers(subscription).orElseThrow().contains(Optional.of(LANE_A));
                    if (listed) {
                        lastSeenWithLaneA.set(before);
                    }
                    return !listed;
                });
                laneDroppedNanos = System.nanoTime();
                await().atMost(DEADLINE).until(() -> since(sendStart).compareTo(SEND_FOR) >= 0);
            } finally {
                sender.close();
            }
            await().atMost(DEADLINE).until(sender::settled);
            Map<String, TwoLaneSender.Sent> sent = sender.acknowledged();
            Set<String> byLaneMember = consumedByLaneMember.stream().map(LaneMemberProcess.Consumed::key).collect(Collectors.toSet());
            await().atMost(DEADLINE).until(() -> consumedKeys(byLaneMember, consumedByBase).containsAll(sent.keySet()));

            Set<String> consumed = consumedKeys(byLaneMember, consumedByBase);
            Set<String> lost = new HashSet<>(sent.keySet());
            lost.removeAll(consumed);
            List<BaseConsumption> baseRuns = List.copyOf(consumedByBase);
            long consumptions = consumedByLaneMember.size() + baseRuns.size();
            long firstFallback = baseRuns.stream().filter(BaseConsumption::inLaneA).mapToLong(BaseConsumption::nanos).min()
                    .orElseThrow();
            long laneAKeysRetried = baseRuns.stream().filter(run -> run.inLaneA() && run.attempt() > 1).map(BaseConsumption::key)
                    .distinct().count();
            Map<SdkMetrics.LaneOutcome, Double> routedAfter = routed(baseRegistry);
            System.out.printf("LaneMemberKillIT: sent %d (%d in lane A, %d base; %d sends failed), consumed %d, lost %d, "
                            + "duplicates %d; lane member consumed %d before the kill; the base member's view dropped lane A "
                            + "%d ms after the kill, first fallback consumption %d ms after the kill; %d lane-A messages "
                            + "retried later by the base member; its lane routing before the kill %s, at the end %s%n",
                    sent.size(), sent.values().stream().filter(s -> s.lane().isPresent()).count(),
                    sent.values().stream().filter(s -> s.lane().isEmpty()).count(), sender.failed(), consumed.size(),
                    lost.size(), consumptions - consumed.size(), consumedByLaneMember.size(),
                    (laneDroppedNanos - killNanos) / 1_000_000, (firstFallback - killNanos) / 1_000_000, laneAKeysRetried,
                    routedBeforeKill, routedAfter);

            assertThat(lost).as("sent and never consumed").isEmpty();
            assertThat(consumedByLaneMember).as("the lane member consumes lane A only")
                    .allSatisfy(c -> assertThat(c.lane()).isEqualTo(LANE_A.path()));
            assertThat(baseRuns).as("the base member consumes lane A only once the brokers dropped the killed lane member")
                    .filteredOn(BaseConsumption::inLaneA)
                    .allSatisfy(run -> assertThat(run.nanos()).isGreaterThan(Math.max(killNanos, lastSeenWithLaneA.get())));
            Set<String> laneAfterKill = sent.entrySet().stream()
                    .filter(e -> e.getValue().lane().isPresent() && e.getValue().startNanos() >= killNanos)
                    .map(Map.Entry::getKey).collect(Collectors.toSet());
            assertThat(laneAfterKill).as("lane-A messages sent after the kill").isNotEmpty()
                    .allSatisfy(key -> assertThat(consumedByBase).extracting(BaseConsumption::key).contains(key));
            assertThat(routedBeforeKill.get(SdkMetrics.LaneOutcome.FORWARDED))
                    .as("lane-A messages the brokers gave the base member, forwarded while the lane member lived").isPositive();
            assertThat(routedBeforeKill.get(SdkMetrics.LaneOutcome.FORWARD_FAILED) + routedBeforeKill.get(SdkMetrics.LaneOutcome.UNREACHABLE))
                    .as("no forward failed while the lane member lived").isZero();
            // Between the kill and the base member's next read of the brokers' list, a lane-A message it gets is forwarded
            // to the dead member, which fails; the member is then suspected and the lane unreachable: retried later.
            assertThat(routedAfter.get(SdkMetrics.LaneOutcome.FORWARD_FAILED)).as("forwards to the killed member").isPositive();
            assertThat(routedAfter.get(SdkMetrics.LaneOutcome.UNREACHABLE)).as("lane A unreachable until the brokers drop it")
                    .isPositive();
            assertThat(routedAfter.get(SdkMetrics.LaneOutcome.UNREACHABLE) + routedAfter.get(SdkMetrics.LaneOutcome.UNROUTABLE))
                    .as("retry-later outcomes of the base member's lane routing").isGreaterThanOrEqualTo(laneAKeysRetried);
        } finally {
            platform.close();
        }
    }

    private static LaneOptions laneOptions(Duration membershipRefresh) {
        SelfSignedCertificate certificate = SelfSignedCertificate.shared();
        return LaneOptions.builder().listen("127.0.0.1", 0)
                .tls(certificate.certificatePem(), certificate.privateKeyPem(), certificate.certificatePem())
                .token(TOKEN).forwardTimeout(Duration.ofSeconds(10)).membershipRefresh(membershipRefresh).build();
    }

    private static Set<String> consumedKeys(Set<String> byLaneMember, Queue<BaseConsumption> byBase) {
        Set<String> keys = new HashSet<>(byLaneMember);
        byBase.forEach(run -> keys.add(run.key()));
        return keys;
    }

    private static Map<SdkMetrics.LaneOutcome, Double> routed(SimpleMeterRegistry registry) {
        Map<SdkMetrics.LaneOutcome, Double> counts = new EnumMap<>(SdkMetrics.LaneOutcome.class);
        for (SdkMetrics.LaneOutcome outcome : SdkMetrics.LaneOutcome.values()) {
            counts.put(outcome, registry.find(SdkMetrics.LANE_ROUTED).tag(SdkMetrics.TAG_OUTCOME, outcome.tag()).counters()
                    .stream().mapToDouble(c -> c.count()).sum());
        }
        return counts;
    }

    private static Duration since(long startNanos) {
        return Duration.ofNanos(System.nanoTime() - startNanos);
    }
}

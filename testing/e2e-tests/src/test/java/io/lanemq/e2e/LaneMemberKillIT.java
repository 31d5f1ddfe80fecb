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
import io.lanemq.core.metrics.SdkMetrics.LaneOutcome;
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
 * brokers. Nothing is lost: what the lane member had not acknowledged when it died comes again; until the
 * brokers drop it from the group, the base member retries its lane's messages later rather than consume them;
 * then they fall back to the base member.
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
     * The kill comes at least this long after sending started, once both the lane member and the base member's forwards
     * consumed lane-A messages, at the next instant halfway between two of the base member's reads (see
     * {@link #halfwayBetweenReads}).
     */
    private static final Duration KILL_NOT_BEFORE = Duration.ofSeconds(2);
    private static final Duration SEND_FOR = Duration.ofSeconds(8);
    private static final Duration SEND_AFTER_KILL = Duration.ofSeconds(3);
    /** The lane member's: short, so it sees the base member soon after it starts. */
    private static final Duration MEMBER_REFRESH = Duration.ofMillis(300);
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    /** One run of the base member's listener: the key, the lane the message was sent in, its attempt, and when. */
    private record BaseConsumption(String key, Optional<Lane> lane, int attempt, long nanos) {
        boolean inLaneA() {
            return lane.equals(Optional.of(LANE_A));
        }
    }

    /**
     * What the test saw of the kill: when it happened, the base member's lane routing until then, what the lane member
     * had consumed, the last instant the base member still listed lane A, and when the test saw it gone.
     */
    private record Kill(long nanos, Map<LaneOutcome, Double> routedBefore, List<LaneMemberProcess.Consumed> consumedByLaneMember,
                        long lastSeenWithLaneA, long laneDropped) {
        Set<String> laneMemberKeys() {
            return consumedByLaneMember.stream().map(LaneMemberProcess.Consumed::key).collect(Collectors.toCollection(HashSet::new));
        }
    }

    private final String group = LocalPlatform.unique("lane-kill");
    private final Subscription subscription = Subscription.builder(TOPIC, group).build();
    private final SimpleMeterRegistry baseRegistry = new SimpleMeterRegistry();
    private final Queue<BaseConsumption> consumedByBase = new ConcurrentLinkedQueue<>();

    @Test
    void nothingIsLostWhenTheOnlyMemberOfALaneIsKilledAndItsMessagesFallBackToTheBase() throws Exception {
        LocalPlatform platform = LocalPlatform.on(RocketMqStack.shared()).addTopic(TOPIC, 4, 50, 50, group);
        Path config = platform.writeConfig();
        try (CoreMessagingClient baseMember = CoreMessagingClient.start(ClientOptions.builder("lane-kill-base")
                     .configLocation(config.toString()).lanes(laneOptions()).build(), baseRegistry);
             Consumer ignored = baseMember.subscribe(subscription, message -> {
                 consumedByBase.add(new BaseConsumption(message.keys().get(0), message.lane(), message.deliveryAttempt(),
                         System.nanoTime()));
                 return ConsumeResult.SUCCESS;
             });
             MessagingClient senderClient = platform.client("lane-kill-sender");
             Producer producer = senderClient.createProducer(ProducerOptions.defaults());
             LaneMemberProcess laneMember = LaneMemberProcess.launch(Path.of("target", "lane-member-kill", group), config,
                     TOPIC, group, LANE_A.path(), TOKEN, MEMBER_REFRESH)) {
            long laneAListed = awaitFirstListing(baseMember, laneMember);
            laneMember.awaitReady(DEADLINE);

            long sendStart = System.nanoTime();
            TwoLaneSender sender = new TwoLaneSender(producer, TOPIC, LANE_A, RATE_PER_LANE);
            Kill kill;
            try {
                // Consumers that just rebalanced take a moment to pull, longer on a loaded machine: both ways a lane-A
                // message is consumed run before the kill, the lane member's own queues and the base member's forwards.
                await().atMost(DEADLINE).pollInterval(Duration.ofMillis(20)).until(() -> since(sendStart).compareTo(KILL_NOT_BEFORE) >= 0
                        && laneMember.consumed().stream().anyMatch(c -> c.lane().equals(LANE_A.path()))
                        && routed().get(LaneOutcome.FORWARDED) > 0);
                long killAt = halfwayBetweenReads(laneAListed, System.nanoTime());
                await().atMost(DEADLINE).pollInterval(Duration.ofMillis(5)).until(() -> System.nanoTime() - killAt >= 0);
                kill = kill(laneMember, baseMember);
                long killed = kill.nanos();
                await().atMost(DEADLINE).until(() -> since(sendStart).compareTo(SEND_FOR) >= 0
                        && since(killed).compareTo(SEND_AFTER_KILL) >= 0);
            } finally {
                sender.close();
            }
            await().atMost(DEADLINE).until(sender::settled);
            Map<String, TwoLaneSender.Sent> sent = sender.acknowledged();
            await().atMost(DEADLINE).until(() -> consumedKeys(kill).containsAll(sent.keySet()));

            report(sent, sender.failed(), kill);
            assertNothingLostAndEachLaneConsumedWhereItShould(sent, kill);
            assertTheBaseMembersRouting(kill);
        } finally {
            platform.close();
        }
    }

    /**
     * Polls the base member's view from the lane member's launch on, so the instant it first lists lane A is (within
     * the poll interval) the end of one of its reads of the brokers' list.
     */
    private long awaitFirstListing(CoreMessagingClient baseMember, LaneMemberProcess laneMember) {
        await().atMost(DEADLINE).pollInterval(Duration.ofMillis(5)).until(() -> {
            laneMember.requireAlive();
            return listsLaneA(baseMember);
        });
        return System.nanoTime();
    }

    /**
     * The first instant, no earlier than {@code notBefore}, halfway between two of the base member's reads, given the
     * end of one read. Killed then, the lane member stays in the base member's view for half a refresh interval or more,
     * in which lane-A messages reach the base member while it still lists the dead member. Each read starts an interval
     * after the previous one ended, so the reads drift later by their own durations (milliseconds, each a broker
     * round trip); the kill stays between two reads unless the reads since the first listing took half an interval in all.
     */
    private static long halfwayBetweenReads(long readEnded, long notBefore) {
        long interval = BASE_REFRESH.toNanos();
        long halfway = readEnded + interval / 2;
        while (halfway - notBefore < 0) {
            halfway += interval;
        }
        return halfway;
    }

    /**
     * SIGKILL of the lane member, checked gone; then waits until the base member no longer lists lane A, noting the
     * last instant it still did.
     */
    private Kill kill(LaneMemberProcess laneMember, CoreMessagingClient baseMember) throws Exception {
        Map<LaneOutcome, Double> routedBefore = routed();
        long pid = laneMember.pid();
        long killNanos = System.nanoTime();
        assertThat(laneMember.kill()).as("the lane member exits on SIGKILL").isTrue();
        assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).as("process %d after SIGKILL", pid).isEmpty();
        List<LaneMemberProcess.Consumed> consumedByLaneMember = laneMember.consumed();
        AtomicLong lastSeenWithLaneA = new AtomicLong(killNanos);
        await().atMost(DEADLINE).pollInterval(Duration.ofMillis(10)).until(() -> {
            long before = System.nanoTime();
            boolean listed = listsLaneA(baseMember);
            if (listed) {
                lastSeenWithLaneA.set(before);
            }
            return !listed;
        });
        return new Kill(killNanos, routedBefore, consumedByLaneMember, lastSeenWithLaneA.get(), System.nanoTime());
    }

    private void report(Map<String, TwoLaneSender.Sent> sent, long failedSends, Kill kill) {
        Set<String> consumed = consumedKeys(kill);
        long consumptions = kill.consumedByLaneMember().size() + consumedByBase.size();
        long lost = sent.keySet().stream().filter(key -> !consumed.contains(key)).count();
        long firstFallback = consumedByBase.stream().filter(BaseConsumption::inLaneA).mapToLong(BaseConsumption::nanos).min()
                .orElse(kill.nanos());
        System.out.printf("LaneMemberKillIT: sent %d (%d in lane A, %d base; %d sends failed), consumed %d, lost %d, "
                        + "duplicates %d; the lane member consumed %d before the kill; the base member's view dropped lane A "
                        + "%d ms after the kill, first fallback consumption %d ms after the kill; %d lane-A messages retried "
                        + "later by the base member; its lane routing before the kill %s, at the end %s%n",
                sent.size(), sent.values().stream().filter(s -> s.lane().isPresent()).count(),
                sent.values().stream().filter(s -> s.lane().isEmpty()).count(), failedSends, consumed.size(), lost,
                consumptions - consumed.size(), kill.consumedByLaneMember().size(), millis(kill.laneDropped() - kill.nanos()),
                millis(firstFallback - kill.nanos()), laneAKeysRetriedByBase(), kill.routedBefore(), routed());
    }

    private void assertNothingLostAndEachLaneConsumedWhereItShould(Map<String, TwoLaneSender.Sent> sent, Kill kill) {
        Set<String> lost = new HashSet<>(sent.keySet());
        lost.removeAll(consumedKeys(kill));
        assertThat(lost).as("sent and never consumed").isEmpty();
        assertThat(kill.consumedByLaneMember()).as("the lane member consumes lane A only, never a base message")
                .allSatisfy(c -> assertThat(c.lane()).isEqualTo(LANE_A.path()));
        // A route is chosen before the listener runs: a lane-A message the base member consumed was routed after the
        // last instant it still listed the lane member.
        assertThat(consumedByBase).as("the base member consumes lane A only once the brokers dropped the killed member")
                .filteredOn(BaseConsumption::inLaneA)
                .allSatisfy(run -> assertThat(run.nanos()).isGreaterThan(kill.lastSeenWithLaneA()));
        Set<String> byBase = consumedByBase.stream().map(BaseConsumption::key).collect(Collectors.toSet());
        assertThat(sent.entrySet()).as("lane-A messages sent after the kill")
                .filteredOn(e -> e.getValue().lane().isPresent() && e.getValue().startNanos() > kill.nanos()).isNotEmpty()
                .allSatisfy(e -> assertThat(byBase).as("consumed by the base member").contains(e.getKey()));
    }

    private void assertTheBaseMembersRouting(Kill kill) {
        assertThat(kill.routedBefore().get(LaneOutcome.FORWARDED))
                .as("lane-A messages the brokers gave the base member, forwarded while the lane member lived").isPositive();
        assertThat(kill.routedBefore().get(LaneOutcome.FORWARD_FAILED) + kill.routedBefore().get(LaneOutcome.UNREACHABLE))
                .as("no forward failed while the lane member lived").isZero();
        // Between the kill and the base member's next read of the brokers' list, a lane-A message it gets is forwarded
        // to the dead member, which fails; the member is then suspected and the lane unreachable: retried later.
        Map<LaneOutcome, Double> after = routed();
        assertThat(after.get(LaneOutcome.FORWARD_FAILED)).as("forwards to the killed member").isPositive();
        assertThat(after.get(LaneOutcome.UNREACHABLE)).as("lane A unreachable until the brokers drop it").isPositive();
        assertThat(after.get(LaneOutcome.UNREACHABLE) + after.get(LaneOutcome.UNROUTABLE))
                .as("retry-later outcomes of the base member's lane routing").isGreaterThanOrEqualTo(laneAKeysRetriedByBase());
    }

    /** Lane-A messages the base member consumed on a later attempt: each was retried later by its lane routing. */
    private long laneAKeysRetriedByBase() {
        return consumedByBase.stream().filter(run -> run.inLaneA() && run.attempt() > 1).map(BaseConsumption::key).distinct()
                .count();
    }

    private boolean listsLaneA(CoreMessagingClient baseMember) {
        return baseMember.lanesWithMembers(subscription).orElseThrow().contains(Optional.of(LANE_A));
    }

    private static LaneOptions laneOptions() {
        SelfSignedCertificate certificate = SelfSignedCertificate.shared();
        return LaneOptions.builder().listen("127.0.0.1", 0)
                .tls(certificate.certificatePem(), certificate.privateKeyPem(), certificate.certificatePem())
                .token(TOKEN).forwardTimeout(Duration.ofSeconds(10)).membershipRefresh(BASE_REFRESH).build();
    }

    private Set<String> consumedKeys(Kill kill) {
        Set<String> keys = kill.laneMemberKeys();
        consumedByBase.forEach(run -> keys.add(run.key()));
        return keys;
    }

    private Map<LaneOutcome, Double> routed() {
        Map<LaneOutcome, Double> counts = new EnumMap<>(LaneOutcome.class);
        for (LaneOutcome outcome : LaneOutcome.values()) {
            counts.put(outcome, baseRegistry.find(SdkMetrics.LANE_ROUTED).tag(SdkMetrics.TAG_OUTCOME, outcome.tag()).counters()
                    .stream().mapToDouble(c -> c.count()).sum());
        }
        return counts;
    }

    private static Duration since(long startNanos) {
        return Duration.ofNanos(System.nanoTime() - startNanos);
    }

    private static long millis(long nanos) {
        return nanos / 1_000_000;
    }
}

package io.lanemq.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.ConsumeResult;
import io.lanemq.api.Message;
import io.lanemq.api.MessageContext;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.api.SendResult;
import io.lanemq.api.Subscription;
import io.lanemq.config.ConsumptionMode;
import io.lanemq.localstack.LocalPlatform;
import io.lanemq.testkit.Idc;
import io.lanemq.testkit.RocketMqStack;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Collectors;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.Test;

/**
 * A local platform's stress-tested logic topic: shadow topics exist on both clusters and take the stress sends,
 * and a DIRECT group and a PROXY group of the topic both consume them, marked. Here rather than in local-stack,
 * whose build would otherwise start a stack of its own for this one test.
 */
class LocalPlatformStressTestIT {
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    /** What a listener saw of one message: its key, its stress mark and the stress mode of the context it ran in. */
    private record Seen(String key, boolean stressTest, boolean inStressContext) {
    }

    @Test
    void directAndProxyGroupsOfAStressTestedTopicConsumeItsShadowTopicsWithTheStressMark() throws Exception {
        String directGroup = LocalPlatform.unique("stress-direct");
        String proxyGroup = LocalPlatform.unique("stress-proxy");
        try (LocalPlatform platform = LocalPlatform.on(RocketMqStack.shared())
                .addTopic("stress-orders", 2, 50, 50, directGroup, proxyGroup).enableStressTest("stress-orders");
             ProxyFixture proxy = proxyFor(platform, proxyGroup);
             MessagingClient client = proxy.client(ProxyFixture.TOKEN);
             Producer producer = client.createProducer(ProducerOptions.defaults())) {
            Map<ConsumptionMode, Queue<Seen>> seen = new EnumMap<>(ConsumptionMode.class);
            for (ConsumptionMode mode : ConsumptionMode.values()) {
                Queue<Seen> into = new ConcurrentLinkedQueue<>();
                seen.put(mode, into);
                client.subscribe(Subscription.builder("stress-orders", mode == ConsumptionMode.PROXY ? proxyGroup : directGroup).build(),
                        message -> {
                            into.add(new Seen(message.keys().get(0), message.stressTest(), MessageContext.current().stressTest()));
                            return ConsumeResult.SUCCESS;
                        });
            }
            Set<String> stress = new HashSet<>();
            Set<String> production = new HashSet<>();
            for (int i = 0; i < 10; i++) {
                try (MessageContext.Scope ignored = MessageContext.none().withStressTest(true).enter()) {
                    stress.add(sendKeyed(producer, "load-" + i));
                }
                production.add(sendKeyed(producer, "real-" + i));
            }

            for (ConsumptionMode mode : ConsumptionMode.values()) {
                Queue<Seen> got = seen.get(mode);
                await().atMost(DEADLINE).until(() -> got.stream().map(Seen::key).collect(Collectors.toSet()).size() == 20);
                assertThat(got).as("%s group: stress messages, from the shadow topics, marked", mode)
                        .filteredOn(x -> stress.contains(x.key())).hasSizeGreaterThanOrEqualTo(10)
                        .allSatisfy(x -> assertThat(x.stressTest() && x.inStressContext()).isTrue());
                assertThat(got).as("%s group: production messages, unmarked", mode)
                        .filteredOn(x -> production.contains(x.key())).hasSizeGreaterThanOrEqualTo(10)
                        .allSatisfy(x -> assertThat(x.stressTest() || x.inStressContext()).isFalse());
            }
        }
    }

    /** The proxy first: the configuration names a PROXY group only once it has a proxy section. */
    private static ProxyFixture proxyFor(LocalPlatform platform, String group) throws Exception {
        ProxyFixture proxy = ProxyFixture.start(platform);
        platform.consumerMode("stress-orders", group, ConsumptionMode.PROXY).writeConfig();
        return proxy;
    }

    private static String sendKeyed(Producer producer, String key) throws Exception {
        producer.send(Message.builder("stress-orders").keys(key).body(key.getBytes(StandardCharsets.UTF_8)).build());
        return key;
    }

    @Test
    void aStressTestedTopicHasItsShadowTopicOnBothClustersAlsoAfterAMove() throws Exception {
        try (LocalPlatform platform = LocalPlatform.on(RocketMqStack.shared())
                .addTopic("order-paid", 2, 50, 50).enableStressTest("order-paid")) {
            assertThat(platform.yaml()).contains("stressTest: true");
            assertThat(platform.shadowTopic("order-paid")).isEqualTo(platform.physicalTopic("order-paid") + "_SHADOW");
            assertQueuesOnBothClusters(platform, platform.shadowTopic("order-paid"), 2);
            assertStressSendsReachTheShadowTopicOfBothClusters(platform);

            platform.moveTopic("order-paid", 3).reweight("order-paid", 50, 50);

            assertQueuesOnBothClusters(platform, platform.shadowTopic("order-paid"), 3);

            assertThat(platform.yaml()).as("a change of the topic keeps its stress-test setting").contains("stressTest: true");
            assertStressSendsReachTheShadowTopicOfBothClusters(platform);
        }
    }

    /** Created by the platform, not by a broker's auto-creation on first send (which would give the broker's default queues). */
    private static void assertQueuesOnBothClusters(LocalPlatform platform, String topic, int queues) throws Exception {
        for (Idc idc : List.of(platform.idcA(), platform.idcB())) {
            DefaultMQAdminExt admin = new DefaultMQAdminExt();
            admin.setNamesrvAddr(idc.nameServerAddress());
            admin.setInstanceName("stress-it-admin-" + idc.name()); // one client instance per name server
            admin.start();
            try {
                TopicRouteData route = admin.examineTopicRouteInfo(topic);
                assertThat(route.getQueueDatas()).as("%s on %s", topic, idc.clusterName())
                        .isNotEmpty().allSatisfy(q -> assertThat(q.getWriteQueueNums()).isEqualTo(queues));
            } finally {
                admin.shutdown();
            }
        }
    }

    private static void assertStressSendsReachTheShadowTopicOfBothClusters(LocalPlatform platform) throws Exception {
        Set<String> clusters = new HashSet<>();
        try (MessagingClient client = platform.client("local-stress-it");
             Producer producer = client.createProducer(ProducerOptions.defaults());
             MessageContext.Scope ignored = MessageContext.none().withStressTest(true).enter()) {
            for (int i = 0; i < 200 && clusters.size() < 2; i++) {
                SendResult sent = producer.send(Message.builder("order-paid").body("load".getBytes(StandardCharsets.UTF_8)).build());
                assertThat(sent.physicalTopic()).isEqualTo(platform.shadowTopic("order-paid"));
                clusters.add(sent.cluster());
            }
        }
        assertThat(clusters).containsExactlyInAnyOrder(platform.idcA().clusterName(), platform.idcB().clusterName());
    }
}

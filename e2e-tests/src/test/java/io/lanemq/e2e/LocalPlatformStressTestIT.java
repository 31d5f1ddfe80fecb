package io.lanemq.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.api.Message;
import io.lanemq.api.MessageContext;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.api.SendResult;
import io.lanemq.localstack.LocalPlatform;
import io.lanemq.testkit.Idc;
import io.lanemq.testkit.RocketMqStack;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.Test;

/**
 * A local platform's stress-tested logic topic: shadow topics exist on both clusters and take the stress sends.
 * Here rather than in local-stack, whose build would otherwise start a stack of its own for this one test.
 */
class LocalPlatformStressTestIT {

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

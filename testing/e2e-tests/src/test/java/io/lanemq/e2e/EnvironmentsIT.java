package io.lanemq.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.ClientOptions;
import io.lanemq.api.Consumer;
import io.lanemq.api.Message;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.api.ReceivedMessage;
import io.lanemq.api.Subscription;
import io.lanemq.localstack.LocalPlatform;
import io.lanemq.testkit.Idc;
import io.lanemq.testkit.RocketMqStack;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * Two environments of one document on the same dual-IDC stack, the same code in both (one logic topic, one group
 * name): each environment's messages are stored on its own physical topics and consumed only by its own group, and a
 * reload that moves the staging topic leaves the default environment's routes as they were.
 */
@Execution(ExecutionMode.CONCURRENT)
class EnvironmentsIT {
    @RegisterExtension
    static final GlobalMeters METRICS = new GlobalMeters();

    private static final int COUNT = 50;

    @Test
    void eachEnvironmentsMessagesAreStoredAndConsumedInItsOwnTopicsOnly() throws Exception {
        RocketMqStack stack = RocketMqStack.shared();
        String base = LocalPlatform.unique("env_orders").replace('-', '_');
        for (String topic : List.of(base, base + "_staging", base + "_moved")) {
            stack.createTopic(topic, 4);
        }
        String group = LocalPlatform.unique("env-billing");
        Path config = Files.createTempFile(stack.directory(), "environments", ".yaml");
        write(config, document(stack, base, base + "_staging", group));

        Received inDefault = new Received();
        Received inStaging = new Received();
        try (MessagingClient defaultClient = client("env-default-it", config, null);
             MessagingClient stagingClient = client("env-staging-it", config, "staging");
             Producer defaultProducer = defaultClient.createProducer(ProducerOptions.defaults());
             Producer stagingProducer = stagingClient.createProducer(ProducerOptions.defaults());
             Consumer defaultConsumer = defaultClient.subscribe(Subscription.builder("orders", group).build(), inDefault);
             Consumer stagingConsumer = stagingClient.subscribe(Subscription.builder("orders", group).build(), inStaging)) {
            send(defaultProducer, "default", COUNT);
            send(stagingProducer, "staging", COUNT);
            await().atMost(Duration.ofSeconds(60)).until(() -> inDefault.deliveries() >= COUNT && inStaging.deliveries() >= COUNT);
            assertThat(stack.storedMessages(base)).as("stored on the default environment's topic").isEqualTo(COUNT);
            assertThat(stack.storedMessages(base + "_staging")).as("stored on staging's").isEqualTo(COUNT);
            assertThat(bodies(inDefault)).as("the default group got only its own").allMatch(b -> b.startsWith("default-"));
            assertThat(bodies(inStaging)).as("staging's group got only its own").allMatch(b -> b.startsWith("staging-"));

            // Staging's topic moves; the default environment resolves to the same routes as before.
            double stagingReloads = METRICS.reloadsApplied("env-staging-it");
            write(config, document(stack, base, base + "_moved", group));
            await().atMost(Duration.ofSeconds(30)).until(() -> METRICS.reloadsApplied("env-staging-it") > stagingReloads);
            send(defaultProducer, "default-after", COUNT);
            send(stagingProducer, "staging-after", COUNT);
            await().atMost(Duration.ofSeconds(60)).until(() -> inDefault.deliveries() >= 2 * COUNT
                    && inStaging.deliveries() >= 2 * COUNT);
            assertThat(stack.storedMessages(base)).as("the default environment still on its topic").isEqualTo(2L * COUNT);
            assertThat(stack.storedMessages(base + "_staging")).as("staging's old topic, untouched since").isEqualTo(COUNT);
            assertThat(stack.storedMessages(base + "_moved")).as("staging's new topic").isEqualTo(COUNT);
            assertThat(bodies(inDefault)).allMatch(b -> b.startsWith("default"));
            assertThat(bodies(inStaging)).allMatch(b -> b.startsWith("staging"));
            System.out.printf("environments: default stored %d, staging %d then %d after its move; each group consumed "
                    + "only its own (%d, %d)%n", stack.storedMessages(base), COUNT, COUNT, inDefault.deliveries(),
                    inStaging.deliveries());
        }
    }

    private static MessagingClient client(String application, Path config, String environment) throws Exception {
        ClientOptions.Builder options = ClientOptions.builder(application).configLocation("file:" + config);
        if (environment != null) {
            options.environment(environment);
        }
        return MessagingClient.create(options.build());
    }

    /** One topic and group on both clusters; staging's routes are written out, so the reload can move them. */
    private static String document(RocketMqStack stack, String defaultTopic, String stagingTopic, String group) {
        StringBuilder clusters = new StringBuilder();
        StringBuilder routes = new StringBuilder();
        StringBuilder stagingRoutes = new StringBuilder();
        for (Idc idc : stack.idcs()) {
            clusters.append("  ").append(idc.clusterName()).append(": { idc: ").append(idc.name()).append(", nameServer: \"")
                    .append(idc.nameServerAddress()).append("\" }\n");
            routes.append("      - { cluster: ").append(idc.clusterName()).append(", physicalTopic: ").append(defaultTopic)
                    .append(", weight: 50 }\n");
            stagingRoutes.append("          - { cluster: ").append(idc.clusterName()).append(", physicalTopic: ")
                    .append(stagingTopic).append(", weight: 50 }\n");
        }
        return "clusters:\n" + clusters
                + "consumer: { startFrom: EARLIEST }\n"
                + "topics:\n  orders:\n    routes:\n" + routes + "    consumerGroups:\n      " + group + ": {}\n"
                + "environments:\n  staging:\n    physicalTopicSuffix: _staging\n    topics:\n      orders:\n        routes:\n"
                + stagingRoutes;
    }

    /** As a ConfigMap swap does: the new document appears whole. */
    private static void write(Path config, String yaml) throws Exception {
        Path next = Files.createTempFile(config.getParent(), "environments", ".next");
        Files.writeString(next, yaml);
        Files.move(next, config, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static void send(Producer producer, String prefix, int count) throws Exception {
        for (int i = 0; i < count; i++) {
            producer.send(Message.builder("orders").body((prefix + "-" + i).getBytes(StandardCharsets.UTF_8)).build());
        }
    }

    private static List<String> bodies(Received received) {
        List<String> bodies = new ArrayList<>();
        for (ReceivedMessage m : received.all) {
            bodies.add(new String(m.body(), StandardCharsets.UTF_8));
        }
        return bodies;
    }
}

package io.lanemq.rocketmq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.lanemq.api.ConsumeResult;
import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.api.MessagingException;
import io.lanemq.api.SendFailedException;
import io.lanemq.api.spi.BoundConsumerSpec;
import io.lanemq.api.spi.BoundProducer;
import io.lanemq.api.spi.ClusterCredentials;
import io.lanemq.api.spi.ClusterEndpoint;
import io.lanemq.testkit.IdcSpec;
import io.lanemq.testkit.RocketMqStack;
import io.lanemq.testkit.StackSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The binding against a cluster whose brokers authenticate and authorize every request (the testkit's ACL option,
 * RocketMQ 5.3's ACL 2.0): with the application's keys it sends and consumes; with none, a wrong secret or a topic
 * outside its rights, a send fails at once naming the cluster and the refusal, and no secret reaches an exception or
 * the SDK's log. One stack of one IDC for the class.
 */
class SecuredClusterIT {
    private static final String APP = "acl-app";
    private static final String APP_SECRET = "app-secret-" + Long.toHexString(System.nanoTime());
    private static final String WRONG_SECRET = "wrong-secret-" + Long.toHexString(System.nanoTime());
    private static final Duration SEND_TIMEOUT = Duration.ofSeconds(5);

    private static RocketMqStack stack;
    private static ClusterEndpoint open;
    private static final ListAppender<ILoggingEvent> LOGS = new ListAppender<>();

    @TempDir
    static Path dir;

    private final RocketMqBinding binding = new RocketMqBinding();

    @BeforeAll
    static void startSecuredStack() {
        stack = RocketMqStack.start(StackSpec.builder()
                .idc(IdcSpec.of("idc-a", "cluster-a"))
                .aclUser(APP, APP_SECRET, "Topic:acl-*", "Group:acl-*")
                .build());
        open = new ClusterEndpoint("cluster-a", "idc-a", stack.idc("idc-a").nameServerAddress(), Map.of(
                "rocketmq.heartbeatBrokerIntervalMs", "1000",
                "rocketmq.pollNameServerIntervalMs", "1000",
                "rocketmq.persistConsumerOffsetIntervalMs", "1000",
                "rocketmq.shutdownAwaitMs", "1000",
                "rocketmq.retriesWithinCluster", "0"));
        LOGS.start();
        ((Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)).addAppender(LOGS);
    }

    @AfterAll
    static void stopStack() {
        ((Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)).detachAppender(LOGS);
        if (stack != null) {
            stack.close();
        }
    }

    private static ClusterEndpoint withKeys(String secret) throws Exception {
        Path file = Files.writeString(dir.resolve(SecuredRoundTrip.unique("keys") + ".properties"),
                "accessKey=" + APP + "\nsecretKey=" + secret + "\n");
        return open.secured(Optional.of(new ClusterCredentials.SecretFile(file)), false);
    }

    private BoundProducer producer(ClusterEndpoint endpoint) throws Exception {
        return SecuredRoundTrip.producer(binding, endpoint, "acl", SEND_TIMEOUT);
    }

    @Test
    void withTheApplicationsKeysASendIsStoredAndConsumed() throws Exception {
        String topic = SecuredRoundTrip.unique("acl-orders");
        stack.createTopic("cluster-a", topic, 2);
        ClusterEndpoint secured = withKeys(APP_SECRET);
        SecuredRoundTrip.sendAndAwaitConsumed(binding, secured, "acl", topic, SEND_TIMEOUT);
    }

    @Test
    void aWrongSecretFailsTheSendAtOnceNamingTheClusterAndTheRefusalWithoutTheSecret() throws Exception {
        String topic = SecuredRoundTrip.unique("acl-refused");
        stack.createTopic("cluster-a", topic, 1);
        try (BoundProducer producer = producer(withKeys(WRONG_SECRET))) {
            long start = System.nanoTime();
            assertThatThrownBy(() -> producer.send(SecuredRoundTrip.message(topic, "x")))
                    .isInstanceOf(SendFailedException.class)
                    .hasMessageContaining("cluster 'cluster-a' refused the request: authentication or authorization failed")
                    .satisfies(e -> assertThat(stackText(e)).doesNotContain(WRONG_SECRET).doesNotContain(APP_SECRET));
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(SEND_TIMEOUT);
        }
        assertNoSecretLogged();
    }

    @Test
    void noCredentialsFailTheSendTheSameWay() throws Exception {
        String topic = SecuredRoundTrip.unique("acl-anonymous");
        stack.createTopic("cluster-a", topic, 1);
        try (BoundProducer producer = producer(open)) {
            long start = System.nanoTime();
            assertThatThrownBy(() -> producer.send(SecuredRoundTrip.message(topic, "x")))
                    .isInstanceOf(SendFailedException.class)
                    .hasMessageContaining("cluster 'cluster-a' refused the request: authentication or authorization failed");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(SEND_TIMEOUT);
        }
    }

    @Test
    void aConsumerWithAWrongSecretFailsToStartNamingTheClusterAndTheRefusal() throws Exception {
        String topic = SecuredRoundTrip.unique("acl-listen");
        stack.createTopic("cluster-a", topic, 1);
        BoundConsumerSpec spec = BoundConsumerSpec.builder(withKeys(WRONG_SECRET), SecuredRoundTrip.unique("acl-group"), topic)
                .consumeThreads(1).build();

        assertThatThrownBy(() -> binding.createConsumer(spec, m -> ConsumeResult.SUCCESS))
                .isInstanceOf(MessagingException.class)
                .hasMessageContaining("cluster 'cluster-a' refused the request: authentication or authorization failed")
                .satisfies(e -> assertThat(stackText(e)).doesNotContain(WRONG_SECRET));
    }

    @Test
    void aTopicOutsideTheApplicationsRightsIsRefused() throws Exception {
        String topic = SecuredRoundTrip.unique("other-team");
        stack.createTopic("cluster-a", topic, 1);
        try (BoundProducer producer = producer(withKeys(APP_SECRET))) {
            assertThatThrownBy(() -> producer.send(SecuredRoundTrip.message(topic, "x")))
                    .isInstanceOf(SendFailedException.class)
                    .hasMessageContaining("cluster 'cluster-a' refused the request: authentication or authorization failed");
        }
        assertNoSecretLogged();
    }

    @Test
    void credentialsThatCannotBeReadFailTheProducerNamingTheFile() {
        Path missing = dir.resolve("missing.properties");
        ClusterEndpoint endpoint = open.secured(Optional.of(new ClusterCredentials.SecretFile(missing)), false);

        assertThatThrownBy(() -> producer(endpoint))
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("credentials file " + missing + " of cluster 'cluster-a'");
    }

    private static String stackText(Throwable error) {
        StringBuilder text = new StringBuilder();
        for (Throwable t = error; t != null && t.getCause() != t; t = t.getCause()) {
            text.append(t).append('\n');
        }
        return text.toString();
    }

    private static void assertNoSecretLogged() {
        for (ILoggingEvent event : List.copyOf(LOGS.list)) {
            String line = event.getFormattedMessage()
                    + (event.getThrowableProxy() == null ? "" : event.getThrowableProxy().getMessage());
            assertThat(line).doesNotContain(APP_SECRET).doesNotContain(WRONG_SECRET);
        }
    }
}

package io.lanemq.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lanemq.api.ClientOptions;
import io.lanemq.api.ConsumeResult;
import io.lanemq.api.Message;
import io.lanemq.api.MessageListener;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.api.TransactionChecker;
import io.lanemq.api.TransactionResolution;
import io.lanemq.api.SendFailedException;
import io.lanemq.core.client.CoreMessagingClient;
import io.lanemq.core.metrics.SdkMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The auto-configuration in an {@link ApplicationContextRunner}: property binding and its errors,
 * conditional beans, listener checks. The platform configuration names clusters at an unreachable
 * address: nothing here needs a broker (the integration test has real ones).
 */
class LaneMqAutoConfigurationTest {
    static final String PLATFORM = """
            clusters:
              cluster-a: { idc: idc-a, nameServer: "127.0.0.1:1" }
              cluster-b: { idc: idc-b, nameServer: "127.0.0.1:1" }
            topics:
              order-paid:
                routes:
                  - { cluster: cluster-a, physicalTopic: order_paid, weight: 50 }
                  - { cluster: cluster-b, physicalTopic: order_paid, weight: 50 }
                consumerGroups:
                  billing: { threads: 2 }
            """;

    @TempDir
    Path directory;
    private String configLocation;
    private ApplicationContextRunner runner;

    @BeforeEach
    void writePlatform() throws IOException {
        configLocation = "file:" + write("platform.yaml", PLATFORM);
        runner = new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(LaneMqAutoConfiguration.class))
                .withPropertyValues("lanemq.application-name=starter-test", "lanemq.config-location=" + configLocation);
    }

    private Path write(String name, String content) throws IOException {
        return Files.writeString(directory.resolve(name), content);
    }

    @Test
    void bindsEveryPropertyIntoTheSdkOptions() {
        runner.withPropertyValues("lanemq.producer.enabled=false", "lanemq.proxy-token=s3cret-Token",
                        "lanemq.properties.rocketmq.pollNameServerIntervalMs=1000", "lanemq.producer.group=checkout-tx")
                .run(context -> {
                    LaneMqProperties properties = context.getBean(LaneMqProperties.class);
                    ClientOptions options = properties.clientOptions();
                    assertThat(options.applicationName()).isEqualTo("starter-test");
                    assertThat(options.configLocation()).isEqualTo(configLocation);
                    assertThat(options.proxyToken()).contains("s3cret-Token");
                    assertThat(options.properties()).containsEntry("rocketmq.pollNameServerIntervalMs", "1000");
                    assertThat(properties.producerOptions().producerGroup()).contains("checkout-tx");
                    assertThat(properties.toString()).doesNotContain("s3cret");
                    assertThat(context).hasSingleBean(MessagingClient.class).doesNotHaveBean(Producer.class);
                });
    }

    @Test
    void producerUsesTheSdkDefaultsWhenNoPropertySaysOtherwise() {
        runner.run(context -> assertThat(context.getBean(LaneMqProperties.class).producerOptions())
                .isSameAs(ProducerOptions.defaults()));
    }

    @Test
    void missingApplicationNameFailsNamingTheProperty() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(LaneMqAutoConfiguration.class))
                .withPropertyValues("lanemq.config-location=" + configLocation)
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .isInstanceOf(InvalidLaneMqPropertyException.class)
                        .hasMessageStartingWith("lanemq.application-name is required"));
    }

    @Test
    void invalidApplicationNameFailsNamingThePropertyAndTheValue() {
        runner.withPropertyValues("lanemq.application-name=check out")
                .run(context -> assertThat(invalidProperty(context.getStartupFailure()))
                        .hasMessageStartingWith("lanemq.application-name: ")
                        .hasMessageContaining("'check out'"));
    }

    @Test
    void missingConfigLocationFailsNamingTheProperty() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(LaneMqAutoConfiguration.class))
                .withPropertyValues("lanemq.application-name=starter-test")
                .run(context -> assertThat(invalidProperty(context.getStartupFailure()).property())
                        .isEqualTo("lanemq.config-location"));
    }

    @Test
    void invalidProxyTokenAndExtraPropertyFailNamingTheirProperty() {
        runner.withPropertyValues("lanemq.proxy-token=has space")
                .run(context -> assertThat(invalidProperty(context.getStartupFailure()).property()).isEqualTo("lanemq.proxy-token"));
        runner.withPropertyValues("lanemq.properties.rocketmq.x=  ")
                .run(context -> assertThat(invalidProperty(context.getStartupFailure()).property())
                        .isEqualTo("lanemq.properties.rocketmq.x"));
        runner.withPropertyValues("lanemq.producer.group=no/slash")
                .run(context -> assertThat(invalidProperty(context.getStartupFailure()).property()).isEqualTo("lanemq.producer.group"));
    }

    @Test
    void missingConfigurationFileFailsWithTheSdkMessage() {
        Path missing = directory.resolve("absent.yaml");
        runner.withPropertyValues("lanemq.config-location=file:" + missing)
                .run(context -> {
                    InvalidLaneMqPropertyException failure = invalidProperty(context.getStartupFailure());
                    assertThat(failure.property()).isEqualTo("lanemq.config-location");
                    assertThat(failure.getCause()).isInstanceOf(io.lanemq.api.InvalidConfigurationException.class);
                    assertThat(failure).hasMessageContaining(missing.toString()).hasMessageContaining(failure.getCause().getMessage());
                });
    }

    @Test
    void invalidConfigurationFailsWithTheSdkKeyAndLine() throws IOException {
        Path bad = write("bad.yaml", PLATFORM.replace("{ cluster: cluster-b,", "{ cluster: cluster-z,"));
        runner.withPropertyValues("lanemq.config-location=file:" + bad)
                .run(context -> assertThat(invalidProperty(context.getStartupFailure()))
                        .hasMessageStartingWith("lanemq.config-location: ")
                        .hasMessageContaining("topics.order-paid.routes[1].cluster (line 8)")
                        .hasMessageContaining("cluster-z"));
    }

    @Test
    void clientAndProducerAreClosedWithTheContext() {
        AtomicReference<MessagingClient> client = new AtomicReference<>();
        AtomicReference<Producer> producer = new AtomicReference<>();
        runner.run(context -> {
            assertThat(context).hasSingleBean(MessagingClient.class).hasSingleBean(Producer.class)
                    .hasSingleBean(LaneMqListenerLifecycle.class);
            client.set(context.getBean(MessagingClient.class));
            producer.set(context.getBean(Producer.class));
        });
        assertThatThrownBy(() -> client.get().createProducer(ProducerOptions.defaults()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
        assertThatThrownBy(() -> producer.get().send(Message.builder("order-paid").body("x".getBytes(StandardCharsets.UTF_8)).build()))
                .isInstanceOf(SendFailedException.class).hasMessageContaining("producer is closed");
    }

    @Test
    void sdkMetersGoToTheApplicationsRegistryAndLeaveWithTheClient() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        runner.withPropertyValues("lanemq.producer.enabled=false")
                .withBean(MeterRegistry.class, () -> registry)
                .run(context -> assertThat(registry.find(SdkMetrics.CONFIG_LAST_RELOAD_FAILED)
                        .tag(SdkMetrics.TAG_APPLICATION, "starter-test").gauge()).isNotNull());
        assertThat(registry.find(SdkMetrics.CONFIG_LAST_RELOAD_FAILED).gauge()).as("gauge after the context closed").isNull();
    }

    @Test
    void sdkMetersGoToActuatorsRegistry() {
        runner.withPropertyValues("lanemq.producer.enabled=false")
                .withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
                        CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class))
                .run(context -> assertThat(context.getBean(MeterRegistry.class).find(SdkMetrics.CONFIG_LAST_RELOAD_FAILED)
                        .tag(SdkMetrics.TAG_APPLICATION, "starter-test").gauge()).isNotNull());
    }

    @Test
    void applicationsOwnClientAndProducerAreUsedInstead() {
        runner.withUserConfiguration(OwnBeans.class).run(context -> {
            assertThat(context).hasSingleBean(MessagingClient.class).hasSingleBean(Producer.class);
            assertThat(context.getBean(MessagingClient.class)).isSameAs(context.getBean("ownClient"));
            assertThat(context.getBean(Producer.class)).isSameAs(context.getBean("ownProducer"));
        });
    }

    @Test
    void disabledStarterCreatesNothing() {
        runner.withPropertyValues("lanemq.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(MessagingClient.class).doesNotHaveBean(Producer.class)
                        .doesNotHaveBean(LaneMqListenerLifecycle.class));
    }

    @Test
    void listenerAnnotationOnABeanThatIsNotAMessageListenerFailsNamingTheBean() {
        runner.withPropertyValues("lanemq.producer.enabled=false")
                .withBean("notAListener", NotAListener.class)
                .run(context -> assertThat(rootCause(context.getStartupFailure()))
                        .hasMessageContaining("@LaneMqListener on bean 'notAListener'")
                        .hasMessageContaining(NotAListener.class.getName())
                        .hasMessageContaining("must implement " + MessageListener.class.getName()));
    }

    @Test
    void listenerOnAnUnknownTopicFailsTheStartupNamingBeanAndTopic() {
        runner.withPropertyValues("lanemq.producer.enabled=false", "test.topic=no-such-topic")
                .withUserConfiguration(UnknownTopicListener.class)
                .run(context -> assertThat(context).hasFailed().getFailure().cause()
                        .hasMessageContaining("@LaneMqListener bean 'unknownTopicListener'")
                        .hasMessageContaining("no-such-topic")
                        .rootCause().isInstanceOf(io.lanemq.api.UnknownTopicException.class));
    }

    @Test
    void listenerOnAnUndeclaredGroupFailsTheStartup() {
        runner.withPropertyValues("lanemq.producer.enabled=false", "test.topic=order-paid")
                .withUserConfiguration(UnknownTopicListener.class)
                .run(context -> assertThat(context).hasFailed().getFailure().cause()
                        .hasMessageContaining("@LaneMqListener bean 'unknownTopicListener'")
                        .hasMessageContaining("undeclared-group"));
    }

    @Test
    void listenerWithAnInvalidGroupNameFailsBeforeSubscribing() {
        runner.withPropertyValues("lanemq.producer.enabled=false")
                .withBean("badGroup", BadGroupListener.class)
                // The SDK's builder names the field; the starter adds the bean.
                .run(context -> assertThat(context.getStartupFailure())
                        .hasMessageContaining("@LaneMqListener on bean 'badGroup': consumerGroup must be")
                        .hasMessageContaining("'bad group'"));
    }

    @Test
    void handlerMethodOfAnotherSignatureFailsNamingTheMethod() {
        runner.withPropertyValues("lanemq.producer.enabled=false")
                .withBean("audit", WrongSignatureHandler.class)
                .run(context -> assertThat(context.getStartupFailure())
                        .hasMessageContaining("@LaneMqListener on method " + WrongSignatureHandler.class.getName()
                                + ".record of bean 'audit': the method must return void or ConsumeResult, not java.lang.String"));
    }

    @Test
    void anErrorHandlerThatIsNoBeanAndABadConcurrencyFailTheStartupNamingTheMethod() {
        runner.withPropertyValues("lanemq.producer.enabled=false").withBean("audit", NoSuchErrorHandler.class)
                .run(context -> assertThat(context.getStartupFailure())
                        .hasMessageContaining("@LaneMqListener on method " + NoSuchErrorHandler.class.getName())
                        .hasMessageContaining("errorHandler 'missing' is not a LaneMqErrorHandler bean"));
        runner.withPropertyValues("lanemq.producer.enabled=false").withBean("audit", ZeroConcurrency.class)
                .run(context -> assertThat(context.getStartupFailure())
                        .hasMessageContaining("concurrency must be a number >= 1, was '0'"));
    }

    @Test
    void twoTransactionCheckersFailTheStartupNamingBoth() {
        runner.withBean("paidOrders", TransactionChecker.class, () -> prepared -> TransactionResolution.COMMIT)
                .withBean("refunds", TransactionChecker.class, () -> prepared -> TransactionResolution.ROLLBACK)
                .run(context -> assertThat(context.getStartupFailure()).rootCause()
                        .hasMessageContaining("one TransactionChecker, but the context has 2: paidOrders, refunds"));
    }

    @Test
    void applicationPropertiesReachTheBindingWhichRefusesAMisspeltKeyOfItsOwn() {
        // The RocketMQ binding checks every rocketmq.* key of a cluster's endpoint when it creates a producer: the
        // refusal shows the application's property got there (before, it stopped in ClientOptions).
        runner.withPropertyValues("lanemq.properties.rocketmq.pullBatchSiz=64")
                .run(context -> assertThat(context.getStartupFailure()).rootCause()
                        .hasMessageContaining("unknown endpoint property 'rocketmq.pullBatchSiz' of cluster 'cluster-"));
    }

    /** One context for three things that each need a started producer (about 6 s a context against unreachable clusters). */
    @Test
    void theTemplateUsesTheApplicationsObjectMapperAPrimaryCheckerOfTwoIsUsedAndAKnownBindingKeyIsAccepted() {
        runner.withPropertyValues("lanemq.properties.rocketmq.pullBatchSize=64")
                .withBean("paidOrders", TransactionChecker.class, () -> prepared -> TransactionResolution.COMMIT, bean -> bean.setPrimary(true))
                .withBean("refunds", TransactionChecker.class, () -> prepared -> TransactionResolution.ROLLBACK)
                .withBean(com.fasterxml.jackson.databind.ObjectMapper.class, () -> new com.fasterxml.jackson.databind.ObjectMapper()
                        .setPropertyNamingStrategy(com.fasterxml.jackson.databind.PropertyNamingStrategies.SNAKE_CASE))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    LaneMqTemplate template = context.getBean(LaneMqTemplate.class);
                    assertThat(template.producer()).isSameAs(context.getBean(Producer.class));
                    Message message = template.toMessage("order-paid", new Paid(42)).build();
                    assertThat(new String(message.body(), StandardCharsets.UTF_8)).as("written by the application's mapper")
                            .isEqualTo("{\"order_id\":42}");
                });
    }

    @Test
    void handlerMethodOnAnUnknownTopicFailsTheStartupNamingTheMethod() {
        runner.withPropertyValues("lanemq.producer.enabled=false")
                .withBean("audit", UnknownTopicHandler.class)
                .run(context -> assertThat(context).hasFailed().getFailure().cause()
                        .hasMessageContaining("@LaneMqListener bean 'audit.record'")
                        .hasMessageContaining("no-such-topic")
                        .rootCause().isInstanceOf(io.lanemq.api.UnknownTopicException.class));
    }

    private static Throwable rootCause(Throwable failure) {
        assertThat(failure).as("startup failure").isNotNull();
        Throwable cause = failure;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause;
    }

    /** The first {@link InvalidLaneMqPropertyException} in the failure's cause chain. */
    static InvalidLaneMqPropertyException invalidProperty(Throwable failure) {
        assertThat(failure).as("startup failure").isNotNull();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof InvalidLaneMqPropertyException invalid) {
                return invalid;
            }
        }
        throw new AssertionError("no InvalidLaneMqPropertyException in the startup failure", failure);
    }

    @LaneMqListener(topic = "order-paid", group = "billing")
    static class NotAListener {
    }

    @LaneMqListener(topic = "order-paid", group = "bad group")
    static class BadGroupListener implements MessageListener {
        @Override
        public ConsumeResult consume(io.lanemq.api.ReceivedMessage message) {
            return ConsumeResult.SUCCESS;
        }
    }

    record Paid(long orderId) {
    }

    static class WrongSignatureHandler {
        @LaneMqListener(topic = "order-paid", group = "billing")
        String record(io.lanemq.api.ReceivedMessage message) {
            return "";
        }
    }

    static class NoSuchErrorHandler {
        @LaneMqListener(topic = "order-paid", group = "billing", errorHandler = "missing")
        void record(java.util.Map<String, Object> payload) {
        }
    }

    static class ZeroConcurrency {
        @LaneMqListener(topic = "order-paid", group = "billing", concurrency = "0")
        void record(java.util.Map<String, Object> payload) {
        }
    }

    static class UnknownTopicHandler {
        @LaneMqListener(topic = "no-such-topic", group = "billing")
        ConsumeResult record(io.lanemq.api.ReceivedMessage message) {
            return ConsumeResult.SUCCESS;
        }
    }

    /** A listener declared by a {@code @Bean} method: found through the method's annotation. */
    @Configuration(proxyBeanMethods = false)
    static class UnknownTopicListener {
        @Bean
        @LaneMqListener(topic = "${test.topic}", group = "undeclared-group")
        MessageListener unknownTopicListener() {
            return message -> ConsumeResult.SUCCESS;
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnBeans {
        @Bean(destroyMethod = "close")
        MessagingClient ownClient(LaneMqProperties properties) throws Exception {
            return CoreMessagingClient.start(properties.clientOptions(), new SimpleMeterRegistry());
        }

        @Bean(destroyMethod = "close")
        Producer ownProducer(MessagingClient ownClient) throws Exception {
            return ownClient.createProducer(ProducerOptions.builder().producerGroup("own-producer").build());
        }
    }
}

package io.lanemq.spring;

import io.lanemq.api.ClientOptions;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.MessagingException;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.api.TransactionChecker;
import io.lanemq.api.spi.MessagingBinding;
import io.lanemq.core.client.CoreMessagingClient;
import io.lanemq.api.LaneEndpointException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lanemq.core.convert.JsonMessageConverter;
import io.lanemq.core.convert.MessageConversion;
import io.lanemq.core.convert.MessageConverter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * LaneMQ for a Spring Boot application: a {@link MessagingClient} from the {@code lanemq.*}
 * properties, a {@link Producer}, a {@link LaneMqTemplate} that sends objects, a {@link MessageConversion}, and
 * the {@link LaneMqListener} subscriptions. An application that defines its own bean of any of these gets it used instead.
 *
 * <p>SDK metrics go to the application's {@link MeterRegistry} when it has one (Actuator's, or its
 * own), else to Micrometer's global registry as for any SDK client. Sends and listener runs are observed on the
 * application's {@link ObservationRegistry} when it has one (Actuator's, which Micrometer Tracing turns into spans
 * carried in the messages' W3C trace context); without one they are not observed. Ordered after Actuator's metrics
 * and observation configurations so their registries exist by the time the client is built.
 */
@AutoConfiguration(afterName = {
        "org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.observation.ObservationAutoConfiguration"})
@ConditionalOnProperty(prefix = LaneMqProperties.PREFIX, name = "enabled", matchIfMissing = true)
@EnableConfigurationProperties(LaneMqProperties.class)
public class LaneMqAutoConfiguration {

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public MessagingClient laneMqMessagingClient(LaneMqProperties properties, ObjectProvider<MeterRegistry> registry,
                                                 ObjectProvider<ObservationRegistry> observations,
                                                 ObjectProvider<MessagingBinding> binding) {
        ClientOptions options = properties.clientOptions();
        MeterRegistry meters = registry.getIfUnique(() -> Metrics.globalRegistry);
        ObservationRegistry observed = observations.getIfUnique(() -> ObservationRegistry.NOOP);
        MessagingBinding given = binding.getIfUnique();
        try {
            // A binding bean is a test's (the in-memory binding of @LaneMqTest(mode = IN_MEMORY)); else the class path's.
            return given != null ? CoreMessagingClient.start(options, meters, observed, given)
                    : CoreMessagingClient.start(options, meters, observed);
        } catch (LaneEndpointException e) {
            // A taken port is the listen port's fault; anything else (address, TLS material) is named by the SDK's message.
            throw new InvalidLaneMqPropertyException(LaneMqProperties.PREFIX + (e.addressInUse() ? ".lanes.listen-port" : ".lanes"),
                    e.getMessage(), e);
        } catch (MessagingException e) {
            // The SDK's message names the file or key and the line; keep it whole in the startup failure.
            throw new InvalidLaneMqPropertyException(LaneMqProperties.PREFIX + ".config-location",
                    "'" + options.configLocation() + "' gives no usable platform configuration: " + e.getMessage(), e);
        }
    }

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    @ConditionalOnProperty(prefix = LaneMqProperties.PREFIX, name = "producer.enabled", matchIfMissing = true)
    public Producer laneMqProducer(MessagingClient client, LaneMqProperties properties,
                                   ObjectProvider<TransactionChecker> transactionChecker, ListableBeanFactory beans)
            throws MessagingException {
        ProducerOptions options = properties.producerOptions();
        TransactionChecker checker = transactionChecker.getIfUnique();
        String[] checkers = beans.getBeanNamesForType(TransactionChecker.class);
        if (checker == null && checkers.length > 1) {
            // getIfUnique gives null for two as for none: without this the producer would silently refuse every transaction.
            throw new IllegalStateException("the LaneMQ producer takes one TransactionChecker, but the context has "
                    + checkers.length + ": " + String.join(", ", checkers) + "; keep one, or mark the one to use @Primary");
        }
        if (checker != null) {
            ProducerOptions.Builder builder = ProducerOptions.builder().transactionChecker(checker);
            options.producerGroup().ifPresent(builder::producerGroup);
            options = builder.build();
        }
        return client.createProducer(options);
    }

    /**
     * How payloads become bodies and back, for the template and the {@code @LaneMqListener} methods: JSON through the
     * application's {@link ObjectMapper} when it has one (Spring Boot's, with its {@code spring.jackson.*} settings),
     * plus every {@link MessageConverter} bean for its content type.
     */
    @Bean
    @ConditionalOnMissingBean
    public MessageConversion laneMqMessageConversion(ObjectProvider<ObjectMapper> objectMapper,
                                                     ObjectProvider<MessageConverter> converters) {
        MessageConversion.Builder builder = MessageConversion.builder();
        converters.orderedStream().forEach(builder::converter);
        ObjectMapper mapper = objectMapper.getIfUnique();
        if (mapper != null && converters.stream().noneMatch(c -> JsonMessageConverter.CONTENT_TYPE.equals(c.contentType()))) {
            builder.defaultConverter(new JsonMessageConverter(mapper));
        }
        return builder.build();
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnProperty(prefix = LaneMqProperties.PREFIX, name = "producer.enabled", matchIfMissing = true)
    public LaneMqTemplate laneMqTemplate(Producer producer, MessageConversion conversion) {
        return new LaneMqTemplate(producer, conversion);
    }

    @Bean
    @ConditionalOnMissingBean
    public LaneMqListenerRegistry laneMqListenerRegistry(MessagingClient client) {
        return new LaneMqListenerRegistry(client);
    }

    @Bean
    @ConditionalOnMissingBean
    public LaneMqListenerLifecycle laneMqListenerLifecycle(LaneMqListenerRegistry registry) {
        return new LaneMqListenerLifecycle(registry);
    }
}

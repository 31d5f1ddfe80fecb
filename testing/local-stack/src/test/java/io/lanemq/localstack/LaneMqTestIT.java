package io.lanemq.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.api.Message;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.api.SendResult;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * {@link LaneMqTest} as an application's test uses it: the declared topic works end to end through an injected
 * client, the configuration location is published for a Spring context, and a second class gets the same platform
 * with its own topic added.
 */
@LaneMqTest(topics = "ext-orders:ext-billing")
class LaneMqTestIT {
    private static volatile LocalPlatform first;

    /**
     * A send the brokers acknowledge shows the topic exists on the stack the extension started; receiving is left to
     * the SDK's own tests (it would add a consumer rebalance, some 30 s here, to a test of the extension).
     */
    @Test
    void anInjectedClientSendsToTheDeclaredTopic(MessagingClient client, LocalPlatform platform) throws Exception {
        first = platform;
        long started = System.nanoTime();
        try (Producer producer = client.createProducer(ProducerOptions.defaults())) {
            SendResult sent = producer.send(Message.builder("ext-orders").body("paid-1".getBytes(StandardCharsets.UTF_8)).build());

            assertThat(sent.physicalTopic()).as("the platform's physical topic, on one of its clusters")
                    .isEqualTo(platform.physicalTopic("ext-orders"));
        }
        assertThat(System.getProperty(LocalPlatformExtension.CONFIG_LOCATION_PROPERTY))
                .as("where a Spring Boot context under test reads the platform").startsWith("file:").endsWith(".yaml");
        System.out.printf("LaneMqTestIT: producer up and one send acknowledged in %d ms (stack already started)%n",
                (System.nanoTime() - started) / 1_000_000);
    }

    @Nested
    @LaneMqTest(topics = "ext-refunds:ext-audit")
    class AnotherTestClass {
        @Test
        void getsTheSamePlatformWithItsTopicAddedToTheOnesBefore(LocalPlatform platform) throws Exception {
            assertThat(platform).as("one platform per test JVM").isSameAs(LocalPlatformExtension.platform());
            if (first != null) {
                assertThat(platform).isSameAs(first);
            }
            Path file = Path.of(System.getProperty(LocalPlatformExtension.CONFIG_LOCATION_PROPERTY).substring("file:".length()));
            assertThat(Files.readString(file)).contains("ext-refunds").contains("ext-audit").contains("ext-orders");
        }
    }
}

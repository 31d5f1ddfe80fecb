package io.lanemq.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.servlet.context.ServletWebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The {@code lanemq} component of Actuator's {@code /actuator/health} in a real Spring Boot application on embedded
 * Tomcat (127.0.0.1, a free port), as a load balancer or an operator sees it. No broker: the clusters' name servers
 * are unreachable ports and nothing is sent (without a producer, whose RocketMQ clients take seconds to close).
 */
class LaneMqHealthEndpointTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    /** The starter tests' platform: two clusters whose name servers are unreachable ports. */
    private static final String PLATFORM = LaneMqAutoConfigurationTest.PLATFORM;

    @TempDir
    Path directory;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final ObjectMapper json = new ObjectMapper();

    @Test
    void showsTheClientUpAndARejectedReloadStillUpWithItsReason() throws Exception {
        Path config = Files.writeString(directory.resolve("platform.yaml"), PLATFORM);
        try (ConfigurableApplicationContext application = new SpringApplicationBuilder(HealthApplication.class)
                .web(WebApplicationType.SERVLET)
                .properties("spring.main.banner-mode=off", "server.address=127.0.0.1", "server.port=0",
                        "management.endpoint.health.show-details=always", "lanemq.producer.enabled=false",
                        "lanemq.application-name=health-endpoint-test", "lanemq.config-location=file:" + config)
                .run()) {
            URI health = URI.create("http://127.0.0.1:"
                    + ((ServletWebServerApplicationContext) application).getWebServer().getPort() + "/actuator/health");

            HttpResponse<String> started = get(health);
            assertThat(started.statusCode()).isEqualTo(200);
            JsonNode lanemq = json.readTree(started.body()).path("components").path("lanemq");
            assertThat(lanemq.path("status").asText()).as(started.body()).isEqualTo("UP");
            assertThat(lanemq.at("/details/configuration/location").asText()).isEqualTo("file:" + config.toAbsolutePath());
            assertThat(lanemq.at("/details/clusters/cluster-a/state").asText()).isEqualTo("UNKNOWN");

            Files.writeString(config, PLATFORM.replace("weight: 50 }\n", "weight: -1 }\n"));
            await().atMost(WAIT).until(() -> component(health).at("/details/configuration/lastReloadRejected").asBoolean());
            HttpResponse<String> rejected = get(health);
            assertThat(rejected.statusCode()).as("still in the load balancer: the last good configuration runs").isEqualTo(200);
            JsonNode afterRejection = json.readTree(rejected.body()).path("components").path("lanemq");
            assertThat(afterRejection.path("status").asText()).isEqualTo("UP");
            assertThat(afterRejection.at("/details/configuration/rejectionReason").asText())
                    .contains("topics.order-paid.routes[0].weight (line 7)");
        }
    }

    private HttpResponse<String> get(URI uri) throws Exception {
        return http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private JsonNode component(URI health) throws Exception {
        return json.readTree(get(health).body()).path("components").path("lanemq");
    }

    /** An application with nothing of its own: Spring Boot's auto-configuration with Actuator, Spring MVC and the starter. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class HealthApplication {
    }
}

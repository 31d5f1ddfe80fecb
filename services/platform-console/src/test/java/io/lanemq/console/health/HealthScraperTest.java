package io.lanemq.console.health;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.net.URI;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class HealthScraperTest {
    @Test
    void anEndpointThatRefusesTheConnectionIsNamedWithItsCauseNotNull() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        URI endpoint = URI.create("http://127.0.0.1:" + closedPort + "/metrics");

        HealthReport report = new HealthScraper(Optional.of(endpoint), List.of()).scrape();

        assertThat(report.errors()).singleElement().asString()
                .startsWith(endpoint + " did not answer: ConnectException").doesNotContain("null");
    }
}

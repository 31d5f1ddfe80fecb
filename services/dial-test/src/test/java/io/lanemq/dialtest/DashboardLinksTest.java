package io.lanemq.dialtest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;

/**
 * The link bar between the four dashboards: each carries a "dashboards" link on the tag {@code lanemq} (Grafana lists
 * every dashboard with that tag), and each has the tag, so from any one the other three are a click away, keeping
 * the time range and the shared variables (datasource, cluster).
 */
class DashboardLinksTest {
    private static final List<String> ALL = Dashboards.ALL;

    @Test
    void everyDashboardLinksToTheOthersByTheTagTheyAllCarry() {
        for (String file : ALL) {
            JsonNode dashboard = Dashboards.read(new ObjectMapper(), file);
            assertThat(StreamSupport.stream(dashboard.path("tags").spliterator(), false).map(JsonNode::asText))
                    .as(file + " carries the tag the link bar lists").contains("lanemq");
            assertThat(dashboard.path("links")).as(file + " link bar").singleElement().satisfies(link -> {
                assertThat(link.path("type").asText()).isEqualTo("dashboards");
                assertThat(link.path("tags")).extracting(JsonNode::asText).containsExactly("lanemq");
                assertThat(link.path("asDropdown").asBoolean(true)).as("a bar, not a menu").isFalse();
                assertThat(link.path("keepTime").asBoolean()).isTrue();
                assertThat(link.path("includeVars").asBoolean()).isTrue();
            });
        }
        assertThat(ALL.stream().map(f -> Dashboards.read(new ObjectMapper(), f).path("uid").asText()).distinct())
                .as("four dashboards, four uids").hasSize(4);
    }
}

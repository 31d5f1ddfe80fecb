package io.lanemq.configtool;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code dlq}'s argument errors: each refused before any cluster is contacted, with a message naming the problem. */
class DlqCommandTest {
    @TempDir
    Path dir;
    private String config;

    @BeforeEach
    void writeConfig() throws Exception {
        config = "file:" + Files.writeString(dir.resolve("platform.yaml"), Documents.VALID);
    }

    @Test
    void dlqWithoutASubcommandNamesThem() {
        ToolRun run = ToolRun.of("dlq");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("name a dlq subcommand: list, show or replay");
    }

    @Test
    void replayWithoutASelectionAsksForOne() {
        ToolRun run = ToolRun.of("dlq", "replay", "order-paid", "billing", "--config", config);

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("--all").contains("--id").contains("--between");
    }

    @Test
    void replayRefusesTwoSelectionsAtOnce() {
        ToolRun run = ToolRun.of("dlq", "replay", "order-paid", "billing", "--config", config, "--all", "--id", "abc");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("mutually exclusive").contains("--all").contains("--id");
    }

    @Test
    void aRangeThatIsNotTwoInstantsShowsTheExpectedForm() {
        ToolRun one = ToolRun.of("dlq", "replay", "order-paid", "billing", "--config", config, "--between", "2026-11-27T08:00:00Z");
        ToolRun bad = ToolRun.of("dlq", "replay", "order-paid", "billing", "--config", config, "--between",
                "2026-11-27T08:00:00Z/yesterday");
        ToolRun empty = ToolRun.of("dlq", "replay", "order-paid", "billing", "--config", config, "--between",
                "2026-11-27T09:00:00Z/2026-11-27T08:00:00Z");

        assertThat(one.exitCode()).isEqualTo(2);
        assertThat(one.err()).contains("'2026-11-27T08:00:00Z' is not a range <from>/<to> of two ISO-8601 instants")
                .contains(TimeRange.EXAMPLE);
        assertThat(bad.exitCode()).isEqualTo(2);
        assertThat(bad.err()).contains("'yesterday' in the range").contains("is not an ISO-8601 instant");
        assertThat(empty.exitCode()).isEqualTo(2);
        assertThat(empty.err()).contains("is empty: its end must come after its start");
    }

    @Test
    void aRateOutOfRangeIsRefused() {
        ToolRun zero = ToolRun.of("dlq", "replay", "order-paid", "billing", "--config", config, "--all", "--rate", "0");
        ToolRun words = ToolRun.of("dlq", "replay", "order-paid", "billing", "--config", config, "--all", "--rate", "fast");

        assertThat(zero.exitCode()).isEqualTo(2);
        assertThat(zero.err()).contains("--rate must be between 1 and 10000 messages per second, was 0");
        assertThat(words.exitCode()).isEqualTo(2);
        assertThat(words.err()).contains("--rate").contains("fast");
    }

    @Test
    void showRefusesALimitOutOfRange() {
        ToolRun run = ToolRun.of("dlq", "show", "order-paid", "billing", "--config", config, "--limit", "0");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("--limit must be between 1 and 1000, was 0");
    }

    @Test
    void everyDlqCommandNeedsTheConfigurationTopicAndGroup() {
        ToolRun noConfig = ToolRun.of("dlq", "list", "order-paid", "billing");
        ToolRun noGroup = ToolRun.of("dlq", "list", "order-paid", "--config", config);

        assertThat(noConfig.exitCode()).isEqualTo(2);
        assertThat(noConfig.err()).contains("Missing required option: '--config=<location>'");
        assertThat(noGroup.exitCode()).isEqualTo(2);
        assertThat(noGroup.err()).contains("<consumer-group>");
    }

    @Test
    void anUnknownTopicOrGroupIsRefusedNamingWhatIsDeclared() {
        ToolRun topic = ToolRun.of("dlq", "list", "order-unpaid", "billing", "--config", config);
        ToolRun group = ToolRun.of("dlq", "replay", "order-paid", "nobody", "--config", config, "--all", "--dry-run");

        assertThat(topic.exitCode()).isEqualTo(ConfigTool.INVALID);
        assertThat(topic.err()).contains("unknown logic topic").contains("order-unpaid").contains("order-paid");
        assertThat(group.exitCode()).isEqualTo(ConfigTool.INVALID);
        assertThat(group.err()).contains("consumer group 'nobody' is not declared").contains("billing");
    }

    @Test
    void anUnreadableConfigurationIsRefused() {
        ToolRun run = ToolRun.of("dlq", "list", "order-paid", "billing", "--config", "file:" + dir.resolve("missing.yaml"));

        assertThat(run.exitCode()).isEqualTo(ConfigTool.INVALID);
        assertThat(run.err()).contains("missing.yaml");
    }
}

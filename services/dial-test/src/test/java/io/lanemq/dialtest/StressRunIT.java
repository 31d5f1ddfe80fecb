package io.lanemq.dialtest;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.testkit.Idc;
import io.lanemq.testkit.RocketMqStack;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import picocli.CommandLine;

/**
 * A short stress ramp through the command line against a real dual-IDC stack: normal probes at 20, 40 and 60/s
 * per broker, 4 s per step. It must run to its end with a step table and name a highest clean rate. It runs alone on
 * the module's shared stack ({@link ItSupport#sharedStack()}): no other test's probes load the brokers meanwhile.
 */
@Isolated // judges rates and latencies: runs alone, see junit-platform.properties
class StressRunIT {

    private static final Pattern CLEAN =
        Pattern.compile("STRESS: highest clean rate ([\\d.,]+)/s per broker per kind achieved \\((\\d+)/s asked\\); ");

    @Test
    void aShortRampEndsWithAStepTableAndAHighestCleanRate() {
        RocketMqStack stack = ItSupport.sharedStack();
        List<String> nameServers = new ArrayList<>();
        for (Idc idc : stack.idcs()) {
            nameServers.add(idc.name() + "=" + idc.nameServerAddress());
        }
        String unique = Long.toString(System.currentTimeMillis() % 1_000_000, 36);
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(captured, true, StandardCharsets.UTF_8);
        int exitCode = new CommandLine(new DialTestMain(out)).execute(
            "--name-servers", String.join(",", nameServers), "--kinds", "normal", "--grace", "3s",
            "--duration", "60", "--topic", "dialtest_stress_" + unique, "--consumer-group", "dialtest-stress-" + unique,
            "--stress", "--stress-start", "20", "--stress-step", "20", "--stress-max", "60",
            "--stress-step-seconds", "4", "--stress-p99-limit-ms", "1000");
        String output = captured.toString(StandardCharsets.UTF_8);
        System.out.print(output);

        assertThat(exitCode).as(output).isZero();
        assertThat(output).contains("Stress ramp: from 20/s by 20/s up to 60/s, 4 s per step, p99 limit 1,000 ms");
        String table = output.substring(output.indexOf("stress ramp, one reconciliation per step"));
        assertThat(table).containsPattern("(?m)^\\s+1\\s+20\\s+\\d+\\s+\\d+");
        Matcher clean = CLEAN.matcher(table);
        assertThat(clean.find()).as(table).isTrue();
        double achieved = Double.parseDouble(clean.group(1).replace(",", ""));
        int asked = Integer.parseInt(clean.group(2));
        assertThat(achieved).as("a clean step issued at least 95%% of its sends: %s", table).isGreaterThanOrEqualTo(0.95 * asked);
    }
}

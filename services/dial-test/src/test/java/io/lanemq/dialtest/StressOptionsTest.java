package io.lanemq.dialtest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Bad stress options end the run before anything starts, with exit code 2 and the option named. */
class StressOptionsTest {

    @Test
    void aStressOptionWithoutStressIsRefused() {
        assertThat(run("--stress-start", "50")).startsWith("2:").contains("need --stress");
    }

    @Test
    void eachStressSettingIsValidatedByName() {
        assertThat(run("--stress", "--stress-start", "0")).startsWith("2:").contains("stressStart");
        assertThat(run("--stress", "--stress-step-seconds", "0")).startsWith("2:").contains("stressStepDuration");
        assertThat(run("--stress", "--stress-p99-limit-ms", "0")).startsWith("2:").contains("stressP99Limit");
        assertThat(run("--stress", "--stress-start", "100", "--stress-max", "50")).startsWith("2:")
            .contains("stressMax (50.0) must not be below stressStart (100.0)");
    }

    /** The exit code, a colon and what went to stderr. */
    private static String run(String... args) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream original = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            int code = new CommandLine(new DialTestMain(new PrintStream(new ByteArrayOutputStream()))).execute(args);
            return code + ":" + err.toString(StandardCharsets.UTF_8);
        } finally {
            System.setErr(original);
        }
    }
}

package io.lanemq.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StackStartFailureIT {

    @Test
    void childThatCannotStartIsNamedWithItsLogAndNothingIsLeftBehind(@TempDir Path baseDir) throws IOException {
        StackSpec spec = StackSpec.builder()
            .idc(IdcSpec.of("idc-x", "cluster-x"))
            .baseDir(baseDir)
            .jvmOptions(List.of("-XX:+NoSuchTestkitFlag"))
            .build();

        assertThatThrownBy(() -> RocketMqStack.start(spec))
            .isInstanceOf(TestkitException.class)
            .hasMessageContaining("name server of idc-x")
            .hasMessageContaining("exited with code")
            .hasMessageContaining("NoSuchTestkitFlag");

        try (Stream<Path> left = Files.list(baseDir)) {
            assertThat(left).as("files left under the base dir").isEmpty();
        }
        assertThat(ProcessHandle.allProcesses()
            .map(p -> p.info().commandLine().orElse(""))
            .filter(command -> command.contains(baseDir.toString())))
            .as("children left running").isEmpty();
    }
}

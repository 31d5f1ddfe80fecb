package io.lanemq.e2e;

import static org.awaitility.Awaitility.await;

import io.lanemq.testkit.tls.SelfSignedCertificate;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * {@link LaneMemberMain} in a child JVM on the test's class path, so a test can kill it with SIGKILL.
 * Its output goes to {@code member.log} in its work directory and what it consumed to {@code consumed.txt}.
 *
 * <p>It never outlives the test: {@link #close()} kills it, a shutdown hook of this JVM kills it if the
 * test JVM exits first, and the child itself halts when this JVM dies without running hooks (its stdin,
 * whose write end only this JVM holds, reaches end of file).
 */
final class LaneMemberProcess implements AutoCloseable {
    /** The test JVM's settings the child needs too: RocketMQ's client logging and rebalance interval, the slf4j provider. */
    private static final List<String> INHERITED_PROPERTIES = List.of("rmq.logback.configurationFile", "rocketmq.log.root",
            "rocketmq.log.level", "slf4j.provider", "slf4j.internal.verbosity", "rocketmq.client.rebalance.waitInterval");
    private static final int TAIL_LINES = 40;

    /** One line of the consumed file: a message's key and the lane it was sent in. */
    record Consumed(String key, String lane) {
    }

    private final Process process;
    private final Path log;
    private final Path consumedFile;
    private final Thread killOnExit;

    private LaneMemberProcess(Process process, Path log, Path consumedFile) {
        this.process = process;
        this.log = log;
        this.consumedFile = consumedFile;
        this.killOnExit = new Thread(process::destroyForcibly, "lane-member-kill-on-exit");
        Runtime.getRuntime().addShutdownHook(killOnExit);
    }

    /** Launches a member of {@code group} in {@code lane} consuming {@code logicTopic}; does not wait for it. */
    static LaneMemberProcess launch(Path workDir, Path config, String logicTopic, String group, String lane, String token,
                                    Duration membershipRefresh) throws IOException {
        return launch(workDir, config, logicTopic, group, lane, token, membershipRefresh, Optional.empty());
    }

    /** @param proxyToken for a member of a PROXY-mode group: its application's token for the consumer proxy */
    static LaneMemberProcess launch(Path workDir, Path config, String logicTopic, String group, String lane, String token,
                                    Duration membershipRefresh, Optional<String> proxyToken) throws IOException {
        Files.createDirectories(workDir);
        Path log = workDir.resolve("member.log");
        Path consumedFile = workDir.resolve("consumed.txt");
        SelfSignedCertificate certificate = SelfSignedCertificate.shared();
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m", "-XX:-UsePerfData"));
        for (String name : INHERITED_PROPERTIES) {
            String value = System.getProperty(name);
            if (value != null) {
                command.add("-D" + name + "=" + value);
            }
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), LaneMemberMain.class.getName(),
                config.toString(), logicTopic, group, lane, certificate.certificatePem().toString(),
                certificate.privateKeyPem().toString(), certificate.certificatePem().toString(),
                consumedFile.toString(), Long.toString(membershipRefresh.toMillis())));
        // stdin stays a pipe this JVM holds open: its end of file is how the child learns that this JVM died.
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().put(LaneMemberMain.TOKEN_VARIABLE, token);
        proxyToken.ifPresent(secret -> builder.environment().put(LaneMemberMain.PROXY_TOKEN_VARIABLE, secret));
        Process process = builder.start();
        return new LaneMemberProcess(process, log, consumedFile);
    }

    /** Waits until the member consumes and sees the group's base member; fails with its log's tail if it exits or is late. */
    LaneMemberProcess awaitReady(Duration timeout) {
        try {
            await().atMost(timeout).pollInterval(Duration.ofMillis(100)).until(() -> {
                requireAlive();
                return Files.exists(log) && Files.readString(log).contains(LaneMemberMain.READY);
            });
            return this;
        } catch (RuntimeException e) {
            throw new IllegalStateException("the lane member did not get ready; " + log + " ends with:\n" + tail(), e);
        }
    }

    /** @throws IllegalStateException naming the exit code and showing the log's tail, when the member exited */
    void requireAlive() {
        if (!process.isAlive()) {
            throw new IllegalStateException("the lane member exited with " + process.exitValue() + "; " + log
                    + " ends with:\n" + tail());
        }
    }

    long pid() {
        return process.pid();
    }

    /** What the member consumed so far, complete lines only (it may be writing one now). */
    List<Consumed> consumed() throws IOException {
        if (!Files.exists(consumedFile)) {
            return List.of();
        }
        String content = Files.readString(consumedFile, StandardCharsets.UTF_8);
        List<String> lines = new ArrayList<>(Arrays.asList(content.split("\n", -1)));
        lines.remove(lines.size() - 1); // the text after the last newline: empty, or a line still being written
        return lines.stream().map(line -> line.split(" ", 2)).map(parts -> new Consumed(parts[0], parts[1])).toList();
    }

    /** SIGKILL: no shutdown hook, no offset commit, no goodbye to the brokers. Returns whether the process is gone. */
    boolean kill() throws InterruptedException {
        process.destroyForcibly();
        return process.waitFor(30, TimeUnit.SECONDS);
    }

    String tail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - TAIL_LINES), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    @Override
    public void close() throws InterruptedException {
        try {
            if (process.isAlive()) {
                kill();
            }
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(killOnExit);
            } catch (IllegalStateException shuttingDown) {
                // The JVM is exiting: the hook runs anyway and kills nothing that is still alive.
            }
        }
    }
}

package io.lanemq.testkit;

import io.lanemq.testkit.process.ChildProtocol;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * Prepares the directory and command line of a child JVM. Each node gets its own directory as {@code user.home},
 * {@code java.io.tmpdir} and working directory, so RocketMQ's default paths ({@code ~/logs}, {@code ~/store},
 * {@code ~/namesrv}), temp files and crash files all stay inside the stack's temp dir.
 */
final class ChildLauncher {

    static final String SETTINGS_FILE = "settings.properties";
    static final String LOG_FILE = "child.log";
    /**
     * System property of the JVM that starts the stack: options added to every child JVM after the spec's, separated
     * by whitespace, {@value #NODE_PLACEHOLDER} replaced by the node's name ('/' as '-', so it can name a file). It reaches the children of a stack that a
     * benchmark or a test builds without a way to pass options, e.g. a flight recording of every server:
     * {@code -Dlanemq.testkit.childJvmOptions=-XX:StartFlightRecording=filename=/tmp/jfr/{node}.jfr,settings=profile}.
     */
    static final String EXTRA_OPTIONS = "lanemq.testkit.childJvmOptions";
    static final String NODE_PLACEHOLDER = "{node}";

    private final StackSpec spec;
    private final Path stackDir;
    private final String javaBin;
    private final String classpath;

    ChildLauncher(StackSpec spec, Path stackDir) {
        this.spec = spec;
        this.stackDir = stackDir;
        this.javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        this.classpath = ChildClasspath.resolve();
    }

    /**
     * Writes the settings of a node and returns its (not yet launched) child.
     *
     * @param logbackConfig RocketMQ's logging config for the kind of server: with both server jars on one class
     *                      path, RocketMQ would otherwise pick the same file for either
     */
    ChildProcess prepare(String description, String nodeName, Class<?> mainClass, int heapMb, Path nodeDir,
                         String logbackConfig, Properties settings) {
        try {
            Files.createDirectories(nodeDir.resolve("tmp"));
            Properties all = new Properties();
            all.putAll(settings);
            all.setProperty(ChildProtocol.ORPHAN_CLEANUP_DIR, nodeDir.toString());
            all.setProperty(ChildProtocol.ORPHAN_CLEANUP_ROOT, stackDir.toString());
            all.setProperty(ChildProtocol.NAME_SERVER_WAIT_MILLIS, String.valueOf(spec.startTimeout().toMillis()));
            Path settingsFile = nodeDir.resolve(SETTINGS_FILE);
            try (OutputStream out = Files.newOutputStream(settingsFile)) {
                all.store(out, description);
            }
            List<String> command = new ArrayList<>();
            command.add(javaBin);
            command.add("-Xms32m");
            command.add("-Xmx" + heapMb + "m");
            // No hsperfdata file in /tmp, which a killed child would leave behind.
            command.add("-XX:-UsePerfData");
            // RocketMQ servers accept TLS by default and generate a self-signed RSA certificate at start-up: that
            // alone costs about half of a child's start-up CPU and ~40 MB RSS. Clients here use plain TCP.
            // Placed before the user's options so that a -Dtls.server.mode there wins.
            command.addAll(spec.tls() ? BrokerTls.serverOptions(spec.tlsCertificate(), spec.tlsPrivateKey())
                : List.of("-Dtls.server.mode=disabled"));
            command.addAll(spec.jvmOptions());
            command.addAll(extraOptions(System.getProperty(EXTRA_OPTIONS, ""), nodeName));
            command.add("-Duser.home=" + nodeDir);
            command.add("-Djava.io.tmpdir=" + nodeDir.resolve("tmp"));
            command.add("-Drocketmq.home.dir=" + nodeDir);
            command.add("-Drmq.logback.configurationFile=" + logbackConfig);
            command.add("-Dlanemq.testkit.node=" + nodeName);
            command.add("-cp");
            command.add(classpath);
            command.add(mainClass.getName());
            command.add(settingsFile.toString());
            return new ChildProcess(description, command, nodeDir, nodeDir.resolve(LOG_FILE));
        } catch (IOException e) {
            throw new TestkitException("cannot prepare " + description + " in " + nodeDir + ": " + e.getMessage(), e);
        }
    }

    /** The options of {@link #EXTRA_OPTIONS} for one node; each must start with '-'. */
    static List<String> extraOptions(String property, String nodeName) {
        List<String> options = new ArrayList<>();
        for (String option : property.strip().split("\\s+")) {
            if (option.isEmpty()) {
                continue;
            }
            if (!option.startsWith("-")) {
                throw new TestkitException("system property " + EXTRA_OPTIONS + ": each option must start with '-', but "
                        + "one is '" + option + "'");
            }
            options.add(option.replace(NODE_PLACEHOLDER, nodeName.replace('/', '-')));
        }
        return options;
    }
}

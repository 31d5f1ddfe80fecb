package io.lanemq.delay.server;

import io.lanemq.service.http.GracefulShutdown;
import io.lanemq.service.http.HttpAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code delay-server --config file:/etc/lanemq/platform.yaml --store-dir /var/lib/lanemq/delay}: runs until SIGTERM.
 *
 * <p>The services' bootstrap convention: a command line (or Spring properties) maps onto the service's one options
 * value, whose builder holds each default and its validation ({@link DelayServerOptions}); only the shutdown's grace
 * and readiness delay, which belong to the process around the server, are declared here. The delay server starts from
 * picocli, not Spring Boot as the consumer proxy and the console do: it has no bean to wire, and its container and
 * manifests already pass these options, so a switch would change how it is deployed.
 */
@Command(name = "delay-server", mixinStandardHelpOptions = true,
        description = "Holds delayed messages of every cluster of a LaneMQ platform and delivers them when due.")
public final class DelayServerMain implements Callable<Integer> {

    @Option(names = "--config", required = true,
            description = "Platform configuration: file:/path/platform.yaml or etcd://host:port[,host:port]/key?cacert=/path/ca.pem (TLS/auth settings: sdk/platform-config/README.md, etcd locations; plaintext only to a loopback etcd)")
    String config;

    @Option(names = "--store-dir", required = true, description = "Root of the stores (one directory per cluster)")
    Path storeDir;

    @Option(names = "--http-address", paramLabel = "HOST:PORT",
            defaultValue = DelayServerOptions.DEFAULT_BIND_ADDRESS + ":" + DelayServerOptions.DEFAULT_METRICS_PORT,
            description = "Where /livez, /readyz and /metrics are served (port 0 = any free port); default ${DEFAULT-VALUE}")
    String httpAddress;

    @Option(names = "--shutdown-grace-seconds", defaultValue = "30",
            description = "On SIGTERM: not ready at once, then the graceful stop, for at most this long; default ${DEFAULT-VALUE}")
    long shutdownGraceSeconds;

    @Option(names = "--readiness-delay-seconds", defaultValue = "0",
            description = "On SIGTERM: keep serving, not ready, this long before the graceful stop, while load balancers "
                    + "stop routing here; default ${DEFAULT-VALUE}")
    long readinessDelaySeconds;

    @Option(names = "--reenqueue-after-seconds", defaultValue = "" + DelayServerOptions.DEFAULT_REENQUEUE_AFTER_SECONDS,
            description = "Re-send a record upstream once it has held its queue's offset this long; default ${DEFAULT-VALUE}")
    long reenqueueAfterSeconds;

    @Option(names = "--commit-interval-ms", defaultValue = "" + DelayServerOptions.DEFAULT_COMMIT_INTERVAL_MS, description = "Offset commit period; default ${DEFAULT-VALUE}")
    long commitIntervalMs;

    @Option(names = "--checkpoint-interval-seconds", defaultValue = "" + DelayServerOptions.DEFAULT_CHECKPOINT_INTERVAL_SECONDS,
            description = "Also checkpoint the offset ledgers this often while running (0 = only at graceful shutdown), "
                    + "so a restart after a crash re-reads only what was read since; default ${DEFAULT-VALUE}")
    long checkpointIntervalSeconds;

    public static void main(String[] args) {
        pinLogging();
        int exit;
        try {
            exit = new CommandLine(new DelayServerMain()).execute(args);
        } catch (Throwable e) {
            // An Error (a missing class, say) passes through picocli: without this exit the threads already
            // started would keep the process alive, /livez answering and never ready, instead of failing the pod.
            e.printStackTrace();
            exit = 2;
        }
        System.exit(exit);
    }

    @Override
    public Integer call() throws Exception {
        InetSocketAddress http = HttpAddress.parse("--http-address", httpAddress);
        Duration grace = GracefulShutdown.requireGrace(Duration.ofSeconds(shutdownGraceSeconds));
        Duration readinessDelay = GracefulShutdown.requireReadinessDelay(Duration.ofSeconds(readinessDelaySeconds));
        DelayServerOptions settings = DelayServerOptions.builder(config, storeDir)
                .bindAddress(http.getHostString())
                .metricsPort(http.getPort())
                .reenqueueAfter(Duration.ofSeconds(reenqueueAfterSeconds))
                .commitInterval(Duration.ofMillis(commitIntervalMs))
                .checkpointInterval(Duration.ofSeconds(checkpointIntervalSeconds))
                .build();
        DelayServer server = DelayServer.start(settings);
        CountDownLatch stopped = new CountDownLatch(1);
        // Graceful: not ready at once, serving through the readiness delay, then deliveries under way finish, what
        // is safe is committed and the queues are handed over (the group rebalances them to the other instances).
        GracefulShutdown.install("lanemq-delay", server.readiness(), readinessDelay, grace, () -> {
            server.close();
            stopped.countDown();
        });
        stopped.await();
        return 0;
    }

    /**
     * The RocketMQ client jar brings its own slf4j binding into shaded logging; naming logback
     * keeps the server's logs in one configuration (the same choice as local-stack's LoggingSetup,
     * which this service does not depend on).
     */
    private static void pinLogging() {
        System.setProperty("slf4j.provider", "ch.qos.logback.classic.spi.LogbackServiceProvider");
        System.setProperty("rmq.logback.configurationFile", "rmq.client.logback.xml");
        System.setProperty("rocketmq.log.level", "WARN");
        if (System.getProperty("rocketmq.log.root") == null) {
            System.setProperty("rocketmq.log.root", System.getProperty("java.io.tmpdir") + "/lanemq-rocketmq-logs");
        }
    }
}

package io.lanemq.proxy;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Runs the consumer proxy standalone until SIGTERM/SIGINT, which shuts it down gracefully. */
@Command(name = "consumer-proxy", mixinStandardHelpOptions = true, version = "consumer-proxy 0.1.0",
        description = "Consumes logic topics from both clusters and pushes them over gRPC (TLS, per-application tokens) to many consumers.")
public final class ConsumerProxyMain implements Callable<Integer> {
    @Option(names = "--config", required = true, description = "Platform configuration: file:/path/platform.yaml or etcd://host:port/key.")
    String configLocation;

    @Option(names = "--listen", defaultValue = "127.0.0.1:7443", description = "gRPC address to bind (only this one). Default: ${DEFAULT-VALUE}.")
    String listen;

    @Option(names = "--http", description = "Address for /metrics and /health, e.g. 127.0.0.1:9464. Default: not served.")
    String http;

    @Option(names = "--tls-keystore", description = "PKCS12 key store with the server key and certificate chain.")
    Path keyStore;

    @Option(names = "--tls-password-env", defaultValue = "LANEMQ_PROXY_KEYSTORE_PASSWORD",
            description = "Environment variable holding the key store password. Default: ${DEFAULT-VALUE}.")
    String keyStorePasswordEnv;

    @Option(names = "--plaintext", description = "Serve without TLS (loopback development only).")
    boolean plaintext;

    @Option(names = "--tokens", required = true, description = "Properties file: application=token, one per line.")
    Path tokensFile;

    @Option(names = "--proxy-id", description = "This instance's name in logs and Subscribed frames. Default: proxy-<pid>.")
    String proxyId;

    @Option(names = "--ack-timeout-ms", defaultValue = "30000", description = "Redeliver a delivery not acked within this time. Default: ${DEFAULT-VALUE}.")
    long ackTimeoutMs;

    @Option(names = "--backoff-ms", defaultValue = "1000,60000", split = ",",
            description = "Nack backoff without a delay: initial,max. Default: ${DEFAULT-VALUE}.")
    List<Long> backoffMs;

    @Option(names = "--drain-timeout-ms", defaultValue = "10000", description = "On shutdown, wait this long for acks. Default: ${DEFAULT-VALUE}.")
    long drainTimeoutMs;

    @Option(names = "--idle-group-timeout-ms", defaultValue = "30000",
            description = "Stop consuming a group that has had no consumer this long. Default: ${DEFAULT-VALUE}.")
    long idleGroupTimeoutMs;

    @Option(names = "--commit-interval-ms", defaultValue = "1000", description = "Offset commit interval. Default: ${DEFAULT-VALUE}.")
    long commitIntervalMs;

    @Option(names = "--max-in-flight", defaultValue = "2000", description = "Per group: messages held at most. Default: ${DEFAULT-VALUE}.")
    int maxInFlight;

    @Option(names = "--max-per-second", defaultValue = "0", description = "Per group: messages fetched per second, 0 unlimited. Default: ${DEFAULT-VALUE}.")
    int maxPerSecond;

    @Option(names = "--group-limits", description = "Per-group override: group=maxInFlight:maxPerSecond (repeatable).")
    List<String> groupLimits = List.of();

    public static void main(String[] args) {
        // RocketMQ's client logs through its own shaded logback: keep its files out of ~/logs.
        System.setProperty("rocketmq.log.level", System.getProperty("rocketmq.log.level", "WARN"));
        if (System.getProperty("rocketmq.log.root") == null) {
            System.setProperty("rocketmq.log.root", System.getProperty("java.io.tmpdir") + "/lanemq-rocketmq-logs");
        }
        System.exit(new CommandLine(new ConsumerProxyMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        ConsumerProxyServer proxy = ConsumerProxyServer.start(config());
        Runtime.getRuntime().addShutdownHook(new Thread(proxy::close, "lanemq-proxy-shutdown"));
        proxy.awaitTermination();
        return 0;
    }

    ProxyConfig config() throws IOException {
        ProxyConfig.Builder builder = ProxyConfig.builder(configLocation)
                .grpcAddress(address(listen, "--listen"))
                .ackTimeout(Duration.ofMillis(ackTimeoutMs))
                .drainTimeout(Duration.ofMillis(drainTimeoutMs))
                .idleGroupTimeout(Duration.ofMillis(idleGroupTimeoutMs))
                .commitInterval(Duration.ofMillis(commitIntervalMs))
                .defaultLimits(new GroupLimits(maxInFlight, maxPerSecond));
        if (backoffMs.size() != 2) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--backoff-ms takes initial,max");
        }
        builder.backoff(Duration.ofMillis(backoffMs.get(0)), Duration.ofMillis(backoffMs.get(1)));
        if (proxyId != null) {
            builder.proxyId(proxyId);
        }
        if (http != null) {
            builder.httpAddress(address(http, "--http"));
        }
        if (keyStore != null) {
            String password = System.getenv(keyStorePasswordEnv);
            builder.tls(keyStore, password == null ? new char[0] : password.toCharArray());
        } else if (plaintext) {
            builder.allowPlaintext();
        }
        Properties tokens = new Properties();
        try (InputStream in = Files.newInputStream(tokensFile)) {
            tokens.load(in);
        }
        tokens.stringPropertyNames().forEach(application -> builder.token(application, tokens.getProperty(application).strip()));
        for (String limit : groupLimits) {
            String[] parts = limit.split("[=:]");
            if (parts.length != 3) {
                throw new CommandLine.ParameterException(new CommandLine(this),
                        "--group-limits takes group=maxInFlight:maxPerSecond, got '" + limit + "'");
            }
            builder.groupLimits(parts[0], new GroupLimits(Integer.parseInt(parts[1]), Integer.parseInt(parts[2])));
        }
        return builder.build();
    }

    private InetSocketAddress address(String hostPort, String option) {
        int colon = hostPort.lastIndexOf(':');
        if (colon <= 0) {
            throw new CommandLine.ParameterException(new CommandLine(this), option + " takes host:port, got '" + hostPort + "'");
        }
        return new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
    }
}

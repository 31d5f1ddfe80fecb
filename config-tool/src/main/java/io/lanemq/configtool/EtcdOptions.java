package io.lanemq.configtool;

import io.lanemq.config.etcd.EtcdClient;
import java.time.Duration;
import picocli.CommandLine.Option;

/** Where the document lives in etcd: shared by publish and show. */
final class EtcdOptions {
    @Option(names = "--etcd", required = true, paramLabel = "<endpoints>", description = "host:port[,host:port...] of etcd.")
    String endpoints;

    @Option(names = "--key", required = true, paramLabel = "<key>", description = "The key holding the whole document, e.g. /lanemq/platform/prod.")
    String key;

    @Option(names = "--timeout", paramLabel = "<seconds>", defaultValue = "5", description = "Deadline of each etcd request (default: ${DEFAULT-VALUE} s).")
    int timeoutSeconds;

    EtcdClient connect() {
        return EtcdClient.builder(endpoints).requestTimeout(Duration.ofSeconds(timeoutSeconds)).build();
    }
}

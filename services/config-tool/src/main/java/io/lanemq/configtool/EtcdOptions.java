package io.lanemq.configtool;

import io.lanemq.config.etcd.EtcdClient;
import io.lanemq.config.etcd.EtcdSecurity;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * Where the document lives in etcd and how to reach it securely: shared by publish and show. The TLS and user
 * options are {@link EtcdSecurity}'s settings (the same as an {@code etcd://} config location's), so they are
 * validated in one place; a password is never an option, only the file or environment variable holding it.
 */
final class EtcdOptions {
    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = "--etcd", required = true, paramLabel = "<endpoints>",
            description = "host:port[,host:port...] of etcd (https://host:port for TLS trusting the JVM's CAs). "
                    + "Plaintext only to loopback addresses.")
    String endpoints;

    @Option(names = "--key", required = true, paramLabel = "<key>", description = "The key holding the whole document, e.g. /lanemq/platform/prod.")
    String key;

    @Option(names = "--timeout", paramLabel = "<seconds>", defaultValue = "5", description = "Deadline of each etcd request (default: ${DEFAULT-VALUE} s).")
    int timeoutSeconds;

    @Option(names = "--tls", paramLabel = "<true|false>", description = "TLS trusting the JVM's CAs (implied by --cacert, --cert).")
    String tls;

    @Option(names = "--cacert", paramLabel = "<pem>", description = "CA certificate that signed etcd's certificate (turns on TLS).")
    String cacert;

    @Option(names = "--cert", paramLabel = "<pem>", description = "Client certificate for etcd's --client-cert-auth (mutual TLS); with --cert-key.")
    String cert;

    @Option(names = "--cert-key", paramLabel = "<pem>", description = "The client certificate's PKCS#8 private key.")
    String certKey;

    @Option(names = "--user", paramLabel = "<name>", description = "etcd user; with --password-file or --password-env.")
    String user;

    @Option(names = "--password-file", paramLabel = "<file>", description = "File holding the etcd user's password.")
    String passwordFile;

    @Option(names = "--password-env", paramLabel = "<variable>", description = "Environment variable holding the etcd user's password.")
    String passwordEnv;

    /** @throws ParameterException (exit code 2) naming the option that is malformed, missing its partner or refused */
    EtcdClient connect() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("tls", tls);
        settings.put("cacert", cacert);
        settings.put("cert", cert);
        settings.put("certKey", certKey);
        settings.put("user", user);
        settings.put("passwordFile", passwordFile);
        settings.put("passwordEnv", passwordEnv);
        try {
            EtcdSecurity security = EtcdSecurity.parse(settings, name -> "--" + name.replaceAll("([A-Z])", "-$1").toLowerCase());
            return EtcdClient.builder(endpoints).requestTimeout(Duration.ofSeconds(timeoutSeconds)).security(security).build();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
    }
}

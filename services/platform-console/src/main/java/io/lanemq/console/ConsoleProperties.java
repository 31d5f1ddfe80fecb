package io.lanemq.console;

import io.lanemq.config.etcd.EtcdSecurity;
import io.lanemq.service.http.GracefulShutdown;
import io.lanemq.service.http.HttpAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code lanemq.console.*}: what the console is started with. Secrets are never properties: the key store password
 * comes from the environment variable named by {@code tls-key-store-password-env}, the etcd user's password from the
 * file or variable named by {@code etcd-password-file} / {@code etcd-password-env}, and users have bcrypt hashes in
 * the users file. Checked at startup, each problem naming its property ({@link InvalidConsolePropertyException}).
 */
@ConfigurationProperties("lanemq.console")
public class ConsoleProperties {
    static final String PREFIX = "lanemq.console.";

    /** etcd endpoints, host:port[,host:port...]. Required. Plaintext only to loopback addresses. */
    private String etcdEndpoints;
    /** TLS to etcd trusting the JVM's CAs (implied by etcd-cacert, etcd-cert). */
    private Boolean etcdTls;
    /** CA certificate (PEM) that signed etcd's certificate. */
    private Path etcdCacert;
    /** Client certificate (PEM) for etcd's --client-cert-auth; with etcd-cert-key. */
    private Path etcdCert;
    /** The client certificate's private key (PKCS#8 PEM). */
    private Path etcdCertKey;
    /** etcd user; with etcd-password-file or etcd-password-env. */
    private String etcdUser;
    /** File holding the etcd user's password. */
    private Path etcdPasswordFile;
    /** Environment variable holding the etcd user's password. */
    private String etcdPasswordEnv;
    /** The platform configuration's etcd key (the history is kept under <key>.history/). Required. */
    private String configKey;
    /** The users file (bcrypt hashes, roles, what each application owns). Required. */
    private Path usersFile;
    /** PKCS12 key store with the server key and certificate chain: the console serves HTTPS. */
    private Path tlsKeyStore;
    /** Environment variable holding the key store password. */
    private String tlsKeyStorePasswordEnv = "LANEMQ_CONSOLE_KEYSTORE_PASSWORD";
    /** Serve plain HTTP: allowed only when server.address is a loopback address (development, tests). */
    private boolean plaintext;
    /** The dial test's Prometheus endpoint, e.g. http://dialtest:9464/metrics. Optional. */
    private URI dialTestMetricsUrl;
    /** Prometheus endpoints of SDK applications (or a federation endpoint) to read their reload status from. */
    private List<URI> sdkMetricsUrls = new ArrayList<>();
    /**
     * Prometheus's base address (e.g. http://prometheus:9090): the health page then shows figures over
     * prometheus-window from its HTTP API instead of scraping the endpoints above. Optional.
     */
    private URI prometheusUrl;
    /** The health page's window when prometheus-url is set. */
    private Duration prometheusWindow = Duration.ofMinutes(5);
    /** HOST:PORT of the operations endpoints (/livez, /readyz, /metrics), apart from the pages as on every service. */
    private String httpAddress = "127.0.0.1:" + DEFAULT_HTTP_PORT;
    /**
     * After SIGTERM: how long the console goes on serving while {@code /readyz} answers DRAINING, so every load
     * balancer stops routing to it first (at least the readiness probe's period x failureThreshold).
     */
    private Duration readinessDelay = Duration.ZERO;
    /** After the readiness delay: how long requests in flight may take to finish before the JVM exits anyway. */
    private Duration shutdownGrace = Duration.ofSeconds(20);

    /** The operations endpoints' default port (the services' convention: services/service-http/README.md). */
    public static final int DEFAULT_HTTP_PORT = 9470;

    /** The operations endpoints' address; a bad value names {@code lanemq.console.http-address}. */
    public InetSocketAddress httpSocketAddress() {
        try {
            return HttpAddress.parse(PREFIX + "http-address", httpAddress);
        } catch (IllegalArgumentException e) {
            throw new InvalidConsolePropertyException(PREFIX + "http-address", e.getMessage(), e);
        }
    }

    /** The validated readiness delay; a bad value names {@code lanemq.console.readiness-delay}. */
    public Duration validReadinessDelay() {
        try {
            return GracefulShutdown.requireReadinessDelay(readinessDelay);
        } catch (IllegalArgumentException e) {
            throw new InvalidConsolePropertyException(PREFIX + "readiness-delay", e.getMessage(), e);
        }
    }

    /** The validated grace period; a bad value names {@code lanemq.console.shutdown-grace}. */
    public Duration validShutdownGrace() {
        try {
            return GracefulShutdown.requireGrace(shutdownGrace);
        } catch (IllegalArgumentException e) {
            throw new InvalidConsolePropertyException(PREFIX + "shutdown-grace", e.getMessage(), e);
        }
    }

    public Duration getReadinessDelay() {
        return readinessDelay;
    }

    public void setReadinessDelay(Duration readinessDelay) {
        this.readinessDelay = readinessDelay;
    }

    public Duration getShutdownGrace() {
        return shutdownGrace;
    }

    public void setShutdownGrace(Duration shutdownGrace) {
        this.shutdownGrace = shutdownGrace;
    }

    public String getHttpAddress() {
        return httpAddress;
    }

    public void setHttpAddress(String httpAddress) {
        this.httpAddress = httpAddress;
    }

    String required(String name, String value) {
        if (value == null || value.isBlank()) {
            throw new InvalidConsolePropertyException(PREFIX + name, "is required");
        }
        return value;
    }

    /** The etcd-* TLS and user properties, validated by the platform's one reader of them; a problem names its property. */
    EtcdSecurity etcdSecurity() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("tls", etcdTls == null ? null : etcdTls.toString());
        settings.put("cacert", etcdCacert == null ? null : etcdCacert.toString());
        settings.put("cert", etcdCert == null ? null : etcdCert.toString());
        settings.put("certKey", etcdCertKey == null ? null : etcdCertKey.toString());
        settings.put("user", etcdUser);
        settings.put("passwordFile", etcdPasswordFile == null ? null : etcdPasswordFile.toString());
        settings.put("passwordEnv", etcdPasswordEnv);
        try {
            return EtcdSecurity.parse(settings, name -> PREFIX + "etcd-" + name.replaceAll("([A-Z])", "-$1").toLowerCase());
        } catch (IllegalArgumentException e) {
            throw new InvalidConsolePropertyException(PREFIX + "etcd", "settings: " + e.getMessage(), e);
        }
    }

    public String getEtcdEndpoints() {
        return etcdEndpoints;
    }

    public void setEtcdEndpoints(String etcdEndpoints) {
        this.etcdEndpoints = etcdEndpoints;
    }

    public Boolean getEtcdTls() {
        return etcdTls;
    }

    public void setEtcdTls(Boolean etcdTls) {
        this.etcdTls = etcdTls;
    }

    public Path getEtcdCacert() {
        return etcdCacert;
    }

    public void setEtcdCacert(Path etcdCacert) {
        this.etcdCacert = etcdCacert;
    }

    public Path getEtcdCert() {
        return etcdCert;
    }

    public void setEtcdCert(Path etcdCert) {
        this.etcdCert = etcdCert;
    }

    public Path getEtcdCertKey() {
        return etcdCertKey;
    }

    public void setEtcdCertKey(Path etcdCertKey) {
        this.etcdCertKey = etcdCertKey;
    }

    public String getEtcdUser() {
        return etcdUser;
    }

    public void setEtcdUser(String etcdUser) {
        this.etcdUser = etcdUser;
    }

    public Path getEtcdPasswordFile() {
        return etcdPasswordFile;
    }

    public void setEtcdPasswordFile(Path etcdPasswordFile) {
        this.etcdPasswordFile = etcdPasswordFile;
    }

    public String getEtcdPasswordEnv() {
        return etcdPasswordEnv;
    }

    public void setEtcdPasswordEnv(String etcdPasswordEnv) {
        this.etcdPasswordEnv = etcdPasswordEnv;
    }

    public String getConfigKey() {
        return configKey;
    }

    public void setConfigKey(String configKey) {
        this.configKey = configKey;
    }

    public Path getUsersFile() {
        return usersFile;
    }

    public void setUsersFile(Path usersFile) {
        this.usersFile = usersFile;
    }

    public Path getTlsKeyStore() {
        return tlsKeyStore;
    }

    public void setTlsKeyStore(Path tlsKeyStore) {
        this.tlsKeyStore = tlsKeyStore;
    }

    public String getTlsKeyStorePasswordEnv() {
        return tlsKeyStorePasswordEnv;
    }

    public void setTlsKeyStorePasswordEnv(String tlsKeyStorePasswordEnv) {
        this.tlsKeyStorePasswordEnv = tlsKeyStorePasswordEnv;
    }

    public boolean isPlaintext() {
        return plaintext;
    }

    public void setPlaintext(boolean plaintext) {
        this.plaintext = plaintext;
    }

    /** The validated window; a bad value names {@code lanemq.console.prometheus-window}. */
    public Duration validPrometheusWindow() {
        if (prometheusWindow == null || prometheusWindow.toSeconds() < 1 || prometheusWindow.compareTo(Duration.ofDays(1)) > 0) {
            throw new InvalidConsolePropertyException(PREFIX + "prometheus-window",
                    "must be between 1s and 1d, was " + prometheusWindow);
        }
        return prometheusWindow;
    }

    public URI getPrometheusUrl() {
        return prometheusUrl;
    }

    public void setPrometheusUrl(URI prometheusUrl) {
        this.prometheusUrl = prometheusUrl;
    }

    public Duration getPrometheusWindow() {
        return prometheusWindow;
    }

    public void setPrometheusWindow(Duration prometheusWindow) {
        this.prometheusWindow = prometheusWindow;
    }

    public URI getDialTestMetricsUrl() {
        return dialTestMetricsUrl;
    }

    public void setDialTestMetricsUrl(URI dialTestMetricsUrl) {
        this.dialTestMetricsUrl = dialTestMetricsUrl;
    }

    public List<URI> getSdkMetricsUrls() {
        return sdkMetricsUrls;
    }

    public void setSdkMetricsUrls(List<URI> sdkMetricsUrls) {
        this.sdkMetricsUrls = sdkMetricsUrls;
    }
}

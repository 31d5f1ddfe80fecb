package io.lanemq.console;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code lanemq.console.*}: what the console is started with. Secrets are never properties: the key store password
 * comes from the environment variable named by {@code tls-key-store-password-env}, and users have bcrypt hashes in
 * the users file. Checked at startup, each problem naming its property ({@link InvalidConsolePropertyException}).
 */
@ConfigurationProperties("lanemq.console")
public class ConsoleProperties {
    static final String PREFIX = "lanemq.console.";

    /** etcd endpoints, host:port[,host:port...]. Required. */
    private String etcdEndpoints;
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

    String required(String name, String value) {
        if (value == null || value.isBlank()) {
            throw new InvalidConsolePropertyException(PREFIX + name, "is required");
        }
        return value;
    }

    public String getEtcdEndpoints() {
        return etcdEndpoints;
    }

    public void setEtcdEndpoints(String etcdEndpoints) {
        this.etcdEndpoints = etcdEndpoints;
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

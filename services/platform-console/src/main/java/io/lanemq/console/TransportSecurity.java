package io.lanemq.console;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;
import org.springframework.boot.web.server.Ssl;

/**
 * The console's transport rule, the consumer proxy's convention: HTTPS with a PKCS12 key store, or plain HTTP only
 * when asked for ({@code plaintext=true}) and bound to loopback, where nothing crosses hosts. Anything else refuses
 * to start, naming the property.
 */
final class TransportSecurity {
    private TransportSecurity() {
    }

    /**
     * @param address the web server's bind address (null: every interface)
     * @param env     reads an environment variable (injected for tests)
     * @return the TLS settings, or null for plain HTTP on loopback
     */
    static Ssl decide(ConsoleProperties properties, InetAddress address, Function<String, String> env) {
        Path keyStore = properties.getTlsKeyStore();
        if (keyStore != null) {
            if (!Files.isReadable(keyStore)) {
                throw new InvalidConsolePropertyException(ConsoleProperties.PREFIX + "tls-key-store", "is not a readable file: " + keyStore);
            }
            String password = env.apply(properties.getTlsKeyStorePasswordEnv());
            if (password == null) {
                throw new InvalidConsolePropertyException(ConsoleProperties.PREFIX + "tls-key-store-password-env",
                        "names " + properties.getTlsKeyStorePasswordEnv() + ", which is not set");
            }
            Ssl ssl = new Ssl();
            ssl.setKeyStore("file:" + keyStore.toAbsolutePath());
            ssl.setKeyStoreType("PKCS12");
            ssl.setKeyStorePassword(password);
            return ssl;
        }
        if (!properties.isPlaintext()) {
            throw new InvalidConsolePropertyException(ConsoleProperties.PREFIX + "tls-key-store",
                    "is required (a PKCS12 key store); " + ConsoleProperties.PREFIX + "plaintext=true only on a loopback server.address");
        }
        if (address == null || !address.isLoopbackAddress()) {
            throw new InvalidConsolePropertyException(ConsoleProperties.PREFIX + "plaintext",
                    "is allowed only when server.address is a loopback address, was " + (address == null ? "every interface" : address.getHostAddress()));
        }
        return null;
    }
}

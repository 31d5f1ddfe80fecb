package io.lanemq.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lanemq.config.etcd.EtcdSecurity;
import io.lanemq.config.etcd.EtcdTls;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConsoleEtcdPropertiesTest {
    @Test
    void withoutEtcdSecurityPropertiesTheConnectionIsPlaintextAndThusLoopbackOnly() {
        assertThat(new ConsoleProperties().etcdSecurity()).isEqualTo(EtcdSecurity.NONE);
    }

    @Test
    void theEtcdPropertiesCarryTlsAndAUserAndEachMistakeNamesItsProperty(@TempDir Path dir) throws Exception {
        Path ca = Files.writeString(dir.resolve("ca.pem"), "pem");
        Path password = Files.writeString(dir.resolve("etcd-password"), "pw");
        ConsoleProperties properties = new ConsoleProperties();
        properties.setEtcdCacert(ca);
        properties.setEtcdUser("console");
        properties.setEtcdPasswordFile(password);

        EtcdSecurity security = properties.etcdSecurity();
        assertThat(security.tls()).contains(EtcdTls.trusting(ca));
        assertThat(security.credentials().orElseThrow().user()).isEqualTo("console");

        properties.setEtcdCert(ca);
        assertThatThrownBy(properties::etcdSecurity)
                .isInstanceOf(InvalidConsolePropertyException.class)
                .hasMessageContaining("lanemq.console.etcd-cert needs lanemq.console.etcd-cert-key");
        properties.setEtcdCert(null);
        properties.setEtcdPasswordEnv("LANEMQ_CONSOLE_ETCD_PASSWORD");
        assertThatThrownBy(properties::etcdSecurity)
                .hasMessageContaining("lanemq.console.etcd-user needs exactly one of lanemq.console.etcd-password-file or "
                        + "lanemq.console.etcd-password-env, got both");
    }
}

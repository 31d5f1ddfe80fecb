package io.lanemq.config.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EtcdSecurityTest {
    /** How the config tool spells them: each message must name what the operator typed. */
    private static final UnaryOperator<String> OPTION = name -> "--" + name.replaceAll("([A-Z])", "-$1").toLowerCase();

    @TempDir
    Path dir;

    private static Map<String, String> settings(String... pairs) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put(pairs[i], pairs[i + 1]);
        }
        return map;
    }

    @Test
    void noSettingsMeanPlaintextWithoutAUser() {
        assertThat(EtcdSecurity.parse(settings(), OPTION)).isEqualTo(EtcdSecurity.NONE);
        assertThat(EtcdSecurity.parse(settings("user", null), OPTION)).isEqualTo(EtcdSecurity.NONE);
    }

    @Test
    void aCaFileTurnsOnTlsAndAUserTakesItsPasswordFromAFile() throws Exception {
        Path ca = Files.writeString(dir.resolve("ca.pem"), "pem");
        Path password = Files.writeString(dir.resolve("pw"), "secret\n");

        EtcdSecurity security = EtcdSecurity.parse(settings("cacert", ca.toString(), "user", "sdk", "passwordFile", password.toString()), OPTION);

        assertThat(security.tls()).contains(EtcdTls.trusting(ca));
        assertThat(security.credentials().orElseThrow().password()).as("one trailing line break dropped").isEqualTo("secret");
        assertThat(security.describe()).isEqualTo("TLS trusting " + ca + ", user 'sdk'").doesNotContain("secret");
        assertThat(security.credentials().orElseThrow().toString()).doesNotContain("secret");
    }

    @Test
    void tlsTrueAloneTrustsTheJvmsCas() {
        assertThat(EtcdSecurity.parse(settings("tls", "true"), OPTION).tls()).contains(EtcdTls.trustingSystemCas());
        assertThat(EtcdSecurity.parse(settings("tls", "false"), OPTION).tls()).isEmpty();
    }

    @Test
    void eachMistakeNamesTheSettingAsTheFrontEndSpellsIt() throws Exception {
        Path cert = Files.writeString(dir.resolve("cert.pem"), "pem");
        assertThatThrownBy(() -> EtcdSecurity.parse(settings("password", "hunter2"), OPTION))
                .hasMessageContaining("--password: an etcd password is never a setting")
                .hasMessageContaining("--password-file").hasMessageContaining("--password-env")
                .hasMessageNotContaining("hunter2");
        assertThatThrownBy(() -> EtcdSecurity.parse(settings("cacerts", "/x"), OPTION))
                .hasMessageContaining("unknown etcd setting --cacerts; known: --tls, --cacert, --cert, --cert-key");
        assertThatThrownBy(() -> EtcdSecurity.parse(settings("tls", "yes"), OPTION))
                .hasMessageContaining("--tls must be true or false, was 'yes'");
        assertThatThrownBy(() -> EtcdSecurity.parse(settings("tls", "false", "cacert", cert.toString()), OPTION))
                .hasMessageContaining("--tls=false contradicts");
        assertThatThrownBy(() -> EtcdSecurity.parse(settings("cert", cert.toString()), OPTION))
                .hasMessageContaining("--cert needs --cert-key");
        assertThatThrownBy(() -> EtcdSecurity.parse(settings("cacert", dir.resolve("absent.pem").toString()), OPTION))
                .hasMessageContaining("CA certificate " + dir.resolve("absent.pem") + " is not a readable file");
        assertThatThrownBy(() -> EtcdSecurity.parse(settings("user", "sdk"), OPTION))
                .hasMessageContaining("--user needs exactly one of --password-file or --password-env, got neither");
        assertThatThrownBy(() -> EtcdSecurity.parse(settings("user", "sdk", "passwordFile", "/a", "passwordEnv", "B"), OPTION))
                .hasMessageContaining("got both");
        assertThatThrownBy(() -> EtcdSecurity.parse(settings("passwordEnv", "B"), OPTION))
                .hasMessageContaining("--password-env needs --user");
        assertThatThrownBy(() -> EtcdSecurity.parse(settings("user", " "), OPTION))
                .hasMessageContaining("--user is empty");
        assertThatThrownBy(() -> EtcdSecurity.parse(settings("user", "sdk", "passwordFile", dir.resolve("none").toString()), OPTION))
                .hasMessageContaining("--password-file: etcd password file " + dir.resolve("none") + " of user 'sdk' is not readable");
    }

    @Test
    void anUnsetPasswordVariableIsNamedAtOnce() {
        assertThatThrownBy(() -> EtcdCredentials.passwordEnv("sdk", "LANEMQ_ETCD_PW", name -> null))
                .hasMessageContaining("environment variable LANEMQ_ETCD_PW (etcd password of user 'sdk') is not set");
        assertThat(EtcdCredentials.passwordEnv("sdk", "LANEMQ_ETCD_PW", name -> "pw").password()).isEqualTo("pw");
    }
}

package io.lanemq.testkit.tls;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.file.Files;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class SelfSignedCertificateTest {

    @Test
    void theKeyStoreOpensWithItsPasswordAndHoldsTheSameLoopbackCertificateAsThePemFile() throws Exception {
        SelfSignedCertificate certificate = SelfSignedCertificate.shared();
        assertThat(SelfSignedCertificate.shared()).as("made once per JVM").isSameAs(certificate);

        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(certificate.keyStore())) {
            store.load(in, certificate.password());
        }
        String alias = store.aliases().nextElement();
        assertThat(store.isKeyEntry(alias)).isTrue();
        X509Certificate served = (X509Certificate) store.getCertificate(alias);

        X509Certificate pem;
        try (InputStream in = Files.newInputStream(certificate.certificatePem())) {
            pem = (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
        }
        assertThat(pem).isEqualTo(served);
        assertThat(served.getSubjectAlternativeNames().stream().map(name -> String.valueOf(name.get(1))))
                .contains("127.0.0.1", "localhost");
        served.checkValidity();
    }

    @Test
    void theReturnedPasswordIsACopy() {
        SelfSignedCertificate certificate = SelfSignedCertificate.shared();
        char[] password = certificate.password();
        Arrays.fill(password, 'x');
        assertThat(certificate.password()).isNotEqualTo(password);
        assertThat(List.of(certificate.keyStore(), certificate.certificatePem())).allMatch(Files::isRegularFile);
    }
}

package io.lanemq.proxy;

import io.grpc.ChannelCredentials;
import io.grpc.TlsChannelCredentials;
import io.lanemq.testkit.tls.SelfSignedCertificate;
import java.io.IOException;

/** gRPC client credentials for the tests' raw stubs, trusting only the JVM's {@link SelfSignedCertificate}. */
final class TestTls {
    private TestTls() {
    }

    static ChannelCredentials clientCredentials() {
        try {
            return TlsChannelCredentials.newBuilder()
                    .trustManager(SelfSignedCertificate.shared().certificatePem().toFile()).build();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the test certificate", e);
        }
    }
}

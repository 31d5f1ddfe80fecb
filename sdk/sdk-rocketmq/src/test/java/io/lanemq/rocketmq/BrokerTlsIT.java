package io.lanemq.rocketmq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lanemq.api.SendFailedException;
import io.lanemq.api.spi.BoundProducer;
import io.lanemq.api.spi.ClusterEndpoint;
import io.lanemq.testkit.IdcSpec;
import io.lanemq.testkit.RocketMqStack;
import io.lanemq.testkit.StackSpec;
import io.lanemq.testkit.tls.SelfSignedCertificate;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.apache.rocketmq.remoting.netty.TlsSystemConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The binding against name servers and brokers that accept TLS only (the testkit's TLS option): a cluster with
 * {@code tls: true} sends and consumes while the client verifies the brokers' certificate; a client that trusts
 * another CA, or speaks plain TCP, cannot send. One stack of one IDC for the class.
 *
 * <p>RocketMQ's client takes its trust settings from JVM-wide fields ({@link TlsSystemConfig}, read when a client
 * builds its TLS context at creation): each test sets them before creating its clients and they are restored after.
 */
class BrokerTlsIT {
    private static final Duration SEND_TIMEOUT = Duration.ofSeconds(3);

    private static RocketMqStack stack;
    private static ClusterEndpoint plain;
    private final RocketMqBinding binding = new RocketMqBinding();

    private boolean savedTestMode;
    private boolean savedAuthServer;
    private String savedTrustPath;

    @BeforeAll
    static void startTlsStack() {
        SelfSignedCertificate certificate = SelfSignedCertificate.shared();
        stack = RocketMqStack.start(StackSpec.builder().idc(IdcSpec.of("idc-a", "cluster-a"))
                .tls(certificate.certificatePem(), certificate.privateKeyPem()).build());
        plain = new ClusterEndpoint("cluster-a", "idc-a", stack.idc("idc-a").nameServerAddress(), Map.of(
                "rocketmq.heartbeatBrokerIntervalMs", "1000",
                "rocketmq.pollNameServerIntervalMs", "1000",
                "rocketmq.persistConsumerOffsetIntervalMs", "1000",
                "rocketmq.shutdownAwaitMs", "1000",
                "rocketmq.retriesWithinCluster", "0"));
    }

    @AfterAll
    static void stopStack() {
        if (stack != null) {
            stack.close();
        }
    }

    @BeforeEach
    void saveTrust() {
        savedTestMode = TlsSystemConfig.tlsTestModeEnable;
        savedAuthServer = TlsSystemConfig.tlsClientAuthServer;
        savedTrustPath = TlsSystemConfig.tlsClientTrustCertPath;
    }

    @AfterEach
    void restoreTrust() {
        TlsSystemConfig.tlsTestModeEnable = savedTestMode;
        TlsSystemConfig.tlsClientAuthServer = savedAuthServer;
        TlsSystemConfig.tlsClientTrustCertPath = savedTrustPath;
    }

    /** What an operator sets with -Dtls.test.mode.enable=false -Dtls.client.authServer=true -Dtls.client.trustCertPath=. */
    private static void trustOnly(SelfSignedCertificate ca) {
        TlsSystemConfig.tlsTestModeEnable = false;
        TlsSystemConfig.tlsClientAuthServer = true;
        TlsSystemConfig.tlsClientTrustCertPath = ca.certificatePem().toString();
    }

    private BoundProducer producer(ClusterEndpoint endpoint) throws Exception {
        return SecuredRoundTrip.producer(binding, endpoint, "tls", SEND_TIMEOUT);
    }

    @Test
    void overVerifiedTlsASendIsStoredAndConsumed() throws Exception {
        trustOnly(SelfSignedCertificate.shared());
        String topic = SecuredRoundTrip.unique("tls-orders");
        stack.createTopic("cluster-a", topic, 2);
        ClusterEndpoint tls = plain.secured(Optional.empty(), true);
        SecuredRoundTrip.sendAndAwaitConsumed(binding, tls, "tls", topic, SEND_TIMEOUT);
    }

    @Test
    void aClientThatTrustsAnotherCaCannotSend() throws Exception {
        trustOnly(SelfSignedCertificate.create("another-ca"));
        String topic = SecuredRoundTrip.unique("tls-untrusted");
        stack.createTopic("cluster-a", topic, 1);
        try (BoundProducer producer = producer(plain.secured(Optional.empty(), true))) {
            assertThatThrownBy(() -> producer.send(SecuredRoundTrip.message(topic, "x"))).isInstanceOf(SendFailedException.class);
        }
    }

    @Test
    void aPlainTcpClientCannotSend() throws Exception {
        String topic = SecuredRoundTrip.unique("tls-plain");
        stack.createTopic("cluster-a", topic, 1);
        try (BoundProducer producer = producer(plain)) {
            assertThatThrownBy(() -> producer.send(SecuredRoundTrip.message(topic, "x")))
                    .isInstanceOf(SendFailedException.class)
                    .satisfies(e -> assertThat(e.getMessage()).contains(topic));
        }
    }
}

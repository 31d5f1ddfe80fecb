package io.lanemq.core.internal.lane.forward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

import com.google.protobuf.BytesValue;
import com.google.protobuf.ByteString;
import io.grpc.CallOptions;
import io.grpc.ClientInterceptors;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.TlsChannelCredentials;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import io.lanemq.api.ConsumeResult;
import io.lanemq.config.ProducerConfig;
import io.lanemq.grpc.server.GrpcServerLimits;
import io.lanemq.protocol.lane.ForwardReply;
import io.lanemq.protocol.lane.LaneForwardGrpc;
import io.lanemq.proxy.protocol.ProxyHeaders;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The server's security and its limits: who gets in, what it refuses, and that it keeps serving. */
class LaneForwardServerTest {
    private final ForwardFixture fixture = new ForwardFixture();
    private final AtomicInteger handled = new AtomicInteger();
    private final LaneForwardHandler counting = (group, topic, message) -> {
        handled.incrementAndGet();
        return ConsumeResult.SUCCESS;
    };

    @AfterEach
    void closeAll() throws Exception {
        fixture.close();
    }

    @Test
    void aWrongTokenOrNoTokenIsUnauthenticatedAndTheListenerNeverRuns() throws Exception {
        LaneForwardServer server = fixture.server(counting);
        LaneForwardClient wrongToken = fixture.client(ForwardClientOptions.builder(
                ForwardFixture.CERTIFICATE.certificatePem(), ForwardFixture.TOKEN + "x").build());

        assertThatThrownBy(() -> wrongToken.forward(server.address(), "billing", ForwardFixture.fullMessage()))
                .isInstanceOfSatisfying(LaneForwardException.class,
                        e -> assertThat(e.code()).isEqualTo(Status.Code.UNAUTHENTICATED));

        ManagedChannel tlsWithoutToken = fixture.channel((Grpc.newChannelBuilderForAddress("127.0.0.1",
                server.address().getPort(), TlsChannelCredentials.newBuilder()
                        .trustManager(ForwardFixture.CERTIFICATE.certificatePem().toFile()).build()).build()));
        assertThatThrownBy(() -> LaneForwardGrpc.newBlockingStub(tlsWithoutToken).withDeadlineAfter(20, TimeUnit.SECONDS)
                .consume(LaneMessages.request("billing", ForwardFixture.fullMessage())))
                .isInstanceOfSatisfying(StatusRuntimeException.class,
                        e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED));

        assertThat(handled).hasValue(0);
        assertThat(fixture.rejected(LaneForwardMetrics.REASON_UNAUTHENTICATED)).isEqualTo(2);
        assertThat(fixture.client().forward(server.address(), "billing", ForwardFixture.fullMessage()))
                .isEqualTo(ConsumeResult.SUCCESS);
        assertThat(handled).hasValue(1);
    }

    @Test
    void aPlaintextClientAndGarbageBytesAreRefusedAndTheServerKeepsServing() throws Exception {
        LaneForwardServer server = fixture.server(counting);
        InetSocketAddress address = server.address();

        ManagedChannel plaintext = fixture.channel((Grpc.newChannelBuilderForAddress("127.0.0.1", address.getPort(),
                InsecureChannelCredentials.create()).build()));
        assertThatThrownBy(() -> LaneForwardGrpc.newBlockingStub(plaintext).withDeadlineAfter(20, TimeUnit.SECONDS)
                .consume(LaneMessages.request("billing", ForwardFixture.fullMessage())))
                .isInstanceOfSatisfying(StatusRuntimeException.class,
                        e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE));

        byte[] garbage = new byte[4096];
        new Random(7).nextBytes(garbage);
        try (Socket socket = new Socket()) {
            socket.connect(address, 5_000);
            socket.setSoTimeout(20_000);
            OutputStream out = socket.getOutputStream();
            out.write(garbage);
            out.flush();
            InputStream in = socket.getInputStream();
            // The server answers with at most a TLS alert, then closes the connection.
            while (in.read() >= 0) {
                // drain
            }
        } catch (IOException connectionReset) {
            // A reset is a close too.
        }

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
                assertThat(fixture.rejected(LaneForwardMetrics.REASON_HANDSHAKE)).isGreaterThanOrEqualTo(2));
        assertThat(handled).hasValue(0);
        assertThat(fixture.client().forward(address, "billing", ForwardFixture.fullMessage())).isEqualTo(ConsumeResult.SUCCESS);
        assertThat(handled).hasValue(1);
    }

    @Test
    void anAuthenticatedCallWhoseBytesAreNotARequestIsInvalidAndTheServerKeepsServing() throws Exception {
        LaneForwardServer server = fixture.server(counting);
        ManagedChannel channel = fixture.channel(Grpc.newChannelBuilderForAddress("127.0.0.1", server.address().getPort(),
                TlsChannelCredentials.newBuilder().trustManager(ForwardFixture.CERTIFICATE.certificatePem().toFile()).build())
                .build());
        // ForwardRequest's field 1 is a string, which proto3 requires to be UTF-8: these bytes cannot parse.
        MethodDescriptor<BytesValue, ForwardReply> bytesAsConsume = MethodDescriptor.<BytesValue, ForwardReply>newBuilder()
                .setType(MethodDescriptor.MethodType.UNARY)
                .setFullMethodName(LaneForwardGrpc.getConsumeMethod().getFullMethodName())
                .setRequestMarshaller(ProtoUtils.marshaller(BytesValue.getDefaultInstance()))
                .setResponseMarshaller(ProtoUtils.marshaller(ForwardReply.getDefaultInstance()))
                .build();
        BytesValue notUtf8 = BytesValue.of(ByteString.copyFrom(new byte[] {(byte) 0xff, (byte) 0xfe, (byte) 0xc0}));
        Metadata token = new Metadata();
        token.put(ProxyHeaders.AUTHORIZATION, ProxyHeaders.BEARER_PREFIX + ForwardFixture.TOKEN);

        assertThatThrownBy(() -> ClientCalls.blockingUnaryCall(ClientInterceptors.intercept(channel,
                        MetadataUtils.newAttachHeadersInterceptor(token)), bytesAsConsume,
                CallOptions.DEFAULT.withDeadlineAfter(20, TimeUnit.SECONDS), notUtf8))
                .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
                    assertThat(e.getStatus().getDescription()).startsWith("not a ForwardRequest");
                });

        assertThat(fixture.rejected(LaneForwardMetrics.REASON_MALFORMED)).isEqualTo(1);
        assertThat(handled).hasValue(0);
        assertThat(fixture.client().forward(server.address(), "billing", ForwardFixture.fullMessage()))
                .isEqualTo(ConsumeResult.SUCCESS);
    }

    @Test
    void aServerWhoseListenersAreAllBusyAnswersResourceExhausted() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        LaneForwardServer server = fixture.server(ForwardFixture.serverSettings().threads(1).queueCapacity(0).build(),
                (group, topic, message) -> {
                    entered.countDown();
                    LaneForwardClientTest.awaitQuietly(release);
                    return ConsumeResult.SUCCESS;
                });
        LaneForwardClient client = fixture.client();
        CompletableFuture<ConsumeResult> first = CompletableFuture.supplyAsync(() -> forwardUnchecked(client, server));
        try {
            assertThat(entered.await(20, TimeUnit.SECONDS)).as("the first message holds the only thread").isTrue();

            assertThatThrownBy(() -> client.forward(server.address(), "billing", ForwardFixture.fullMessage()))
                    .isInstanceOfSatisfying(LaneForwardException.class,
                            e -> assertThat(e.code()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED));
            assertThat(fixture.rejected(LaneForwardMetrics.REASON_BUSY)).isEqualTo(1);
        } finally {
            release.countDown();
        }
        assertThat(first.get(20, TimeUnit.SECONDS)).isEqualTo(ConsumeResult.SUCCESS);
        assertThat(client.forward(server.address(), "billing", ForwardFixture.fullMessage())).isEqualTo(ConsumeResult.SUCCESS);
    }

    @Test
    void aConnectionBeyondTheCapIsClosedWhileTheOpenOnesKeepWorking() throws Exception {
        LaneForwardServer server = fixture.server(ForwardFixture.serverSettings()
                .limits(GrpcServerLimits.builder().maxConnections(2).build()).build(), counting);
        LaneForwardClient first = fixture.client();
        LaneForwardClient second = fixture.client();
        assertThat(first.forward(server.address(), "billing", ForwardFixture.fullMessage())).isEqualTo(ConsumeResult.SUCCESS);
        assertThat(second.forward(server.address(), "billing", ForwardFixture.fullMessage())).isEqualTo(ConsumeResult.SUCCESS);

        // Each client holds one connection: the third is closed on accept, before TLS.
        assertThatThrownBy(() -> fixture.client().forward(server.address(), "billing", ForwardFixture.fullMessage()))
                .isInstanceOfSatisfying(LaneForwardException.class,
                        e -> assertThat(e.code()).isEqualTo(Status.Code.UNAVAILABLE));

        assertThat(fixture.rejected(LaneForwardMetrics.REASON_CONNECTION_CAP)).as("counted").isGreaterThanOrEqualTo(1);
        assertThat(first.forward(server.address(), "billing", ForwardFixture.fullMessage())).isEqualTo(ConsumeResult.SUCCESS);
        assertThat(second.forward(server.address(), "billing", ForwardFixture.fullMessage())).isEqualTo(ConsumeResult.SUCCESS);
        assertThat(handled).as("the refused client's message never reached the listener").hasValue(4);
    }

    @Test
    void aClientThatConnectsAndNeverStartsTlsIsClosedAfterTheHandshakeTimeout() throws Exception {
        LaneForwardServer server = fixture.server(ForwardFixture.serverSettings()
                .limits(GrpcServerLimits.builder().handshakeTimeout(Duration.ofMillis(500)).build()).build(), counting);
        try (Socket silent = new Socket()) {
            silent.connect(server.address(), 5_000);
            // Far beyond the timeout: a read that returns or fails before it means the server closed the socket.
            silent.setSoTimeout(10_000);
            long start = System.nanoTime();
            int read;
            try {
                read = silent.getInputStream().read();
            } catch (IOException reset) {
                read = -1;
            }
            long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(read).as("closed by the server, nothing sent").isEqualTo(-1);
            assertThat(waitedMillis).as("closed by the handshake timeout, not by the 10 s read timeout").isBetween(300L, 5_000L);
        }
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(fixture.rejected(LaneForwardMetrics.REASON_HANDSHAKE)).isEqualTo(1));
        assertThat(fixture.client().forward(server.address(), "billing", ForwardFixture.fullMessage()))
                .isEqualTo(ConsumeResult.SUCCESS);
    }

    @Test
    void theLargestBodyAProducerMaySendIsForwardedWhole() throws Exception {
        byte[] body = new byte[ProducerConfig.DEFAULTS.maxBodyBytes()]; // 4 MiB: the default limits of both ends
        new Random(7).nextBytes(body);
        List<byte[]> bodies = new CopyOnWriteArrayList<>();
        LaneForwardServer server = fixture.server(ForwardFixture.serverSettings().build(), (group, topic, message) -> {
            bodies.add(message.body());
            return ConsumeResult.SUCCESS;
        });

        assertThat(fixture.client().forward(server.address(), "billing", LaneForwardClientTest.withBody(body)))
                .isEqualTo(ConsumeResult.SUCCESS);
        assertThat(bodies).hasSize(1);
        assertThat(bodies.get(0)).as("byte for byte").isEqualTo(body);
    }

    @Test
    void aMessageOverTheLimitIsRefusedBeforeSendingNamingTopicSizeAndLimitAndTheServerRefusesOneSentAnyway() throws Exception {
        int limit = 64 * 1024;
        LaneForwardServer server = fixture.server(ForwardFixture.serverSettings().maxMessageBytes(limit).build(), counting);
        LaneForwardClient client = fixture.client(ForwardFixture.clientSettings().maxMessageBytes(limit).build());

        assertThatThrownBy(() -> client.forward(server.address(), "billing", LaneForwardClientTest.withBody(new byte[100 * 1024])))
                .isInstanceOfSatisfying(LaneForwardException.class, e -> {
                    assertThat(e.code()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
                    assertThat(e.getMessage()).contains("logic topic order-paid").containsPattern("is 10\\d{4} bytes")
                            .contains("over the limit of " + limit);
                });
        // A client that does not hold the limit (another version, a hostile one): the server refuses the call itself.
        LaneForwardClient unlimited = fixture.client(ForwardFixture.clientSettings().maxMessageBytes(1024 * 1024).build());
        assertThatThrownBy(() -> unlimited.forward(server.address(), "billing", LaneForwardClientTest.withBody(new byte[100 * 1024])))
                .isInstanceOfSatisfying(LaneForwardException.class, e -> {
                    assertThat(e.code()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
                    assertThat(e.getMessage()).containsPattern("ForwardRequest of 10\\d{4} bytes is over the limit of " + limit);
                });
        assertThat(fixture.rejected(LaneForwardMetrics.REASON_TOO_LARGE)).isEqualTo(1);
        assertThat(handled).hasValue(0);
        assertThat(client.forward(server.address(), "billing", ForwardFixture.fullMessage())).isEqualTo(ConsumeResult.SUCCESS);
        assertThat(unlimited.forward(server.address(), "billing", ForwardFixture.fullMessage())).isEqualTo(ConsumeResult.SUCCESS);
    }

    @Test
    void oversizeMessagesFromAClientIgnoringTheLimitAreRefusedWithABoundedLog() throws Exception {
        List<LogRecord> published = new CopyOnWriteArrayList<>();
        java.util.logging.Logger grpcLog = java.util.logging.Logger.getLogger("io.grpc.netty.shaded.io.grpc.netty.NettyServerStream");
        Handler counter = new Handler() {
            @Override
            public void publish(LogRecord record) {
                published.add(record);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        grpcLog.addHandler(counter);
        try {
            LaneForwardServer server = fixture.server(ForwardFixture.serverSettings().maxMessageBytes(64 * 1024).build(), counting);
            LaneForwardClient unlimited = fixture.client(ForwardFixture.clientSettings().maxMessageBytes(1024 * 1024).build());
            // Over twice the limit: the transport itself resets these streams (CANCELLED) and gRPC logs each.
            for (int i = 0; i < 30; i++) {
                assertThatThrownBy(() -> unlimited.forward(server.address(), "billing",
                        LaneForwardClientTest.withBody(new byte[200 * 1024]))).isInstanceOf(LaneForwardException.class);
            }
            assertThat(handled).hasValue(0);
            assertThat(unlimited.forward(server.address(), "billing", ForwardFixture.fullMessage())).isEqualTo(ConsumeResult.SUCCESS);
            // gRPC logs each refused message with a stack trace; throttled, 30 make at most one line.
            assertThat(published).as("gRPC's log lines for 30 oversize messages").hasSizeLessThanOrEqualTo(1);
        } finally {
            grpcLog.removeHandler(counter);
        }
    }

    @Test
    void closeLetsTheMessageInHandFinishAndRefusesNewCalls() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        LaneForwardServer server = fixture.server((group, topic, message) -> {
            entered.countDown();
            LaneForwardClientTest.awaitQuietly(release);
            return ConsumeResult.SUCCESS;
        });
        LaneForwardClient client = fixture.client();
        CompletableFuture<ConsumeResult> inHand = CompletableFuture.supplyAsync(() -> forwardUnchecked(client, server));
        assertThat(entered.await(20, TimeUnit.SECONDS)).isTrue();

        CompletableFuture<Void> closing = CompletableFuture.runAsync(server::close);
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThatThrownBy(() -> connect(server.address()))
                .as("no longer accepting").isInstanceOf(ConnectException.class));
        assertThat(closing).as("still waiting for the listener").isNotDone();

        release.countDown();
        assertThat(inHand.get(20, TimeUnit.SECONDS)).isEqualTo(ConsumeResult.SUCCESS);
        closing.get(20, TimeUnit.SECONDS);
    }

    @Test
    void aServerConfiguredOn127001IsReachableOnlyThere() throws Exception {
        LaneForwardServer server = fixture.server(counting);

        assertThat(server.address().getAddress().getHostAddress()).isEqualTo("127.0.0.1");
        assertThat(server.address().getPort()).isPositive();
        // Another address of this very host (the rest of 127/8 is loopback too): a server bound to every
        // interface would accept here, one bound to 127.0.0.1 alone refuses.
        assertThatThrownBy(() -> connect(new InetSocketAddress("127.0.0.2", server.address().getPort())))
                .isInstanceOf(ConnectException.class);
    }

    @Test
    void aCertificateThatDoesNotNameTheDialledAddressIsRefused() throws Exception {
        LaneForwardServer server;
        try {
            server = fixture.server(ForwardFixture.serverSettings().host("127.0.0.2").build(), counting);
        } catch (IOException notBindable) {
            assumeThat(notBindable).as("127.0.0.2 is bindable here").isNull();
            return;
        }

        // The testkit's certificate names 127.0.0.1 and localhost only.
        assertThatThrownBy(() -> fixture.client().forward(server.address(), "billing", ForwardFixture.fullMessage()))
                .isInstanceOfSatisfying(LaneForwardException.class,
                        e -> assertThat(e.code()).isEqualTo(Status.Code.UNAVAILABLE));
        assertThat(handled).hasValue(0);
    }

    @Test
    void aCertificateNotSignedByTheTrustedCaIsRefused(@TempDir Path dir) throws Exception {
        LaneForwardServer server = fixture.server(counting);
        Optional<Certificate> jdkCa = someJdkCaCertificate();
        assumeThat(jdkCa).as("the JDK's cacerts holds a CA").isPresent();
        Path otherCa = dir.resolve("other-ca.pem");
        Files.writeString(otherCa, pem(jdkCa.get()), StandardCharsets.US_ASCII);
        LaneForwardClient client = fixture.client(ForwardClientOptions.builder(otherCa, ForwardFixture.TOKEN).build());

        assertThatThrownBy(() -> client.forward(server.address(), "billing", ForwardFixture.fullMessage()))
                .isInstanceOfSatisfying(LaneForwardException.class,
                        e -> assertThat(e.code()).isEqualTo(Status.Code.UNAVAILABLE));
        assertThat(handled).hasValue(0);
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
                assertThat(fixture.rejected(LaneForwardMetrics.REASON_HANDSHAKE)).isGreaterThanOrEqualTo(1));
    }

    @Test
    void unreadableCertificateFilesFailTheStartNamingThem(@TempDir Path dir) {
        Path missing = dir.resolve("missing.pem");
        ForwardServerOptions settings = ForwardServerOptions.builder(missing, ForwardFixture.CERTIFICATE.privateKeyPem(),
                ForwardFixture.TOKEN).host("127.0.0.1").build();

        assertThatThrownBy(() -> fixture.server(settings, counting))
                .isInstanceOf(IOException.class).hasMessageContaining(missing.toString());
    }

    private static ConsumeResult forwardUnchecked(LaneForwardClient client, LaneForwardServer server) {
        try {
            return client.forward(server.address(), "billing", ForwardFixture.fullMessage());
        } catch (LaneForwardException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void connect(InetSocketAddress address) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(address, 5_000);
        }
    }

    /** A real CA that certainly did not sign the testkit's certificate. */
    private static Optional<Certificate> someJdkCaCertificate() throws Exception {
        Path file = Path.of(System.getProperty("java.home"), "lib", "security", "cacerts");
        if (!Files.isReadable(file)) {
            return Optional.empty();
        }
        KeyStore cacerts = KeyStore.getInstance(KeyStore.getDefaultType());
        try (InputStream in = Files.newInputStream(file)) {
            cacerts.load(in, null);
        }
        return cacerts.size() == 0 ? Optional.empty() : Optional.of(cacerts.getCertificate(cacerts.aliases().nextElement()));
    }

    private static String pem(Certificate certificate) throws Exception {
        return "-----BEGIN CERTIFICATE-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(certificate.getEncoded())
                + "\n-----END CERTIFICATE-----\n";
    }
}

package io.lanemq.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.lanemq.api.InvalidMessageException;
import io.lanemq.api.Message;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.config.ProducerConfig;
import io.lanemq.grpc.server.GrpcServerLimits;
import io.lanemq.localstack.LocalPlatform;
import io.lanemq.proxy.protocol.Delivery;
import io.lanemq.testkit.net.PortFuzzer;
import io.lanemq.testkit.tls.SelfSignedCertificate;
import java.io.IOException;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import org.slf4j.LoggerFactory;

/**
 * The proxy's gRPC port under load it must refuse and input it must survive, with a real consumer receiving
 * throughout: the one message size limit end to end (a 4 MiB body delivered, a larger one refused at send), the
 * handshake timeout, the connection cap, and seeded hostile input. One broker stack (shared), one proxy.
 */
@Isolated // counts the root logger's warnings and times the flood: runs alone
class ProxyHardeningIT {
    private static final long SEED = 20261125L;
    private static final int MAX_CONNECTIONS = 40;

    private String group;
    private LocalPlatform platform;
    private ConsumerProxyServer proxy;
    private TestConsumer healthy;
    private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    private final ListAppender<ILoggingEvent> logged = new ListAppender<>();

    @BeforeEach
    void start() throws Exception {
        group = LocalPlatform.unique("proxy-hardening");
        platform = ProxyHarness.platform().addTopic("proxy-hardening", 2, 50, 50, group);
        proxy = ConsumerProxyServer.start(ProxyHarness.config(platform, b -> b.serverLimits(GrpcServerLimits.builder()
                .maxConnections(MAX_CONNECTIONS).handshakeTimeout(Duration.ofSeconds(1)).build())));
        healthy = ProxyHarness.consumer(proxy, "healthy", d -> true)
                .subscribe(ProxyHarness.APPLICATION, group, "proxy-hardening", 64, true);
        ProxyHarness.send(platform, "proxy-hardening", 3, i -> null);
        await().atMost(Duration.ofSeconds(60)).until(() -> healthy.acked.size() == 3);
    }

    @AfterEach
    void stop() throws Exception {
        root.detachAppender(logged);
        healthy.close();
        proxy.close();
        platform.close();
    }

    @Test
    void aBodyAtTheLimitIsDeliveredWholeAndALargerOneIsRefusedAtSendNamingTopicSizeAndLimit() throws Exception {
        int limit = ProducerConfig.DEFAULTS.maxBodyBytes();
        // Two random bits a byte: varied, so the body is checked byte for byte, yet compressible. An incompressible body
        // at the limit is refused by a default broker: RocketMQ's client zlib-compresses bodies over 4 KiB whatever
        // the result, random bytes grow by about a kilobyte, and the broker's limit is the same 4 MiB.
        byte[] atLimit = new byte[limit];
        Random random = new Random(SEED);
        for (int i = 0; i < limit; i++) {
            atLimit[i] = (byte) random.nextInt(4);
        }
        try (MessagingClient client = platform.client("proxy-hardening-sender");
             Producer producer = client.createProducer(ProducerOptions.defaults())) {
            assertThatThrownBy(() -> producer.send(Message.builder("proxy-hardening").body(new byte[limit + 1]).build()))
                    .isInstanceOf(InvalidMessageException.class)
                    .hasMessageContaining("proxy-hardening")
                    .hasMessageContaining("body is " + (limit + 1) + " bytes, over the maximum of " + limit);
            producer.send(Message.builder("proxy-hardening").keys("big").body(atLimit).build());
            for (int i = 0; i < 5; i++) {
                producer.send(Message.builder("proxy-hardening").keys("small-" + i).body(new byte[] {(byte) i}).build());
            }
        }

        await().atMost(Duration.ofSeconds(60)).until(() -> healthy.acked.size() == 3 + 6);
        Delivery big = healthy.acked.stream().filter(d -> d.getKeysList().contains("big")).findFirst().orElseThrow();
        assertThat(big.getBody().toByteArray()).as("the 4 MiB body, byte for byte").isEqualTo(atLimit);
        assertThat(healthy.acked).extracting(d -> d.getKeysList().get(0)).as("nothing else lost")
                .contains("small-0", "small-1", "small-2", "small-3", "small-4");
    }

    @Test
    void aFrameOverTheLimitEndsItsCallWithResourceExhaustedNamingTheLimitAndOthersGoOn() throws Exception {
        int limit = GrpcServerLimits.maxFrameBytes(ProducerConfig.DEFAULTS.maxBodyBytes());

        io.grpc.Status refused = ProxyHarness.rawCall(proxy, new byte[limit + 1]);

        assertThat(refused.getCode()).isEqualTo(io.grpc.Status.Code.RESOURCE_EXHAUSTED);
        assertThat(refused.getDescription()).isEqualTo("ConsumeRequest of " + (limit + 1) + " bytes is over the limit of " + limit
                + " bytes (producer.maxBodyBytes plus framing room)");
        assertThat(proxy.meters().counter(ProxyMetrics.REFUSED_CALLS, "code", "RESOURCE_EXHAUSTED").count()).isEqualTo(1);
        ProxyHarness.send(platform, "proxy-hardening", 2, i -> null);
        await().atMost(Duration.ofSeconds(30)).until(() -> healthy.acked.size() == 3 + 2);
    }

    @Test
    void hostileConnectionsAreClosedTheFloodMeetsTheCapAndTheConsumerKeepsReceiving() throws Exception {
        logged.start();
        root.addAppender(logged);
        long start = System.nanoTime();

        try (Socket silent = new Socket()) {
            silent.connect(proxy.grpcAddress(), 5_000);
            silent.setSoTimeout(10_000);
            int read;
            try {
                read = silent.getInputStream().read();
            } catch (IOException reset) {
                read = -1;
            }
            assertThat(read).as("a connection that never starts TLS is closed by the 1 s handshake timeout").isEqualTo(-1);
        }
        PortFuzzer fuzz = PortFuzzer.against(proxy.grpcAddress(), SEED)
                .tls(PortFuzzer.trusting(SelfSignedCertificate.shared().certificatePem()));
        PortFuzzer.Counts counts = fuzz.randomBytes(200, 4096)
                .plus(fuzz.truncated(PortFuzzer.clientHello(), 100))
                .plus(fuzz.prefaceThenGarbage(100));
        int accepted = fuzz.flood(300, () -> {
            ProxyHarness.send(platform, "proxy-hardening", 5, i -> null);
            await().atMost(Duration.ofSeconds(30)).until(() -> healthy.acked.size() == 3 + 5);
        });
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);

        assertThat(counts.hung()).as("connections the proxy left open: %s", counts).isZero();
        assertThat(accepted).isPositive();
        assertThat(proxy.meters().counter(ProxyMetrics.REFUSED_CONNECTIONS, "reason", "connection_cap").count())
                .as("the flood went past the cap of %d", MAX_CONNECTIONS).isPositive();
        ProxyHarness.send(platform, "proxy-hardening", 5, i -> null);
        await().atMost(Duration.ofSeconds(30)).until(() -> healthy.acked.size() == 3 + 10);
        assertThat(healthy.ended.get()).as("the consumer's stream survived").isNull();
        List<ILoggingEvent> warnings = logged.list.stream().filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN)).toList();
        assertThat(warnings).as("warnings for %d hostile connections", counts.tried() + 301).hasSizeLessThanOrEqualTo(5);
        assertThat(seconds).as("fuzz and flood, short").isLessThan(15);
    }
}

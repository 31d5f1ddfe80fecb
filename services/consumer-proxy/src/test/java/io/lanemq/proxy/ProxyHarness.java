package io.lanemq.proxy;

import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.lanemq.proxy.protocol.ConsumerProxyGrpc;
import io.lanemq.proxy.protocol.ProxyHeaders;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.lanemq.api.Message;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.localstack.LocalPlatform;
import io.lanemq.proxy.protocol.Delivery;
import io.lanemq.testkit.RocketMqStack;
import io.lanemq.testkit.tls.SelfSignedCertificate;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.apache.rocketmq.remoting.protocol.admin.ConsumeStats;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;

/** A proxy over a local platform on the shared test stack, with TLS, one application and its token. */
final class ProxyHarness {
    static final String APPLICATION = "proxy-it-app";
    static final String TOKEN = "proxy-it-token-0123456789";

    private ProxyHarness() {
    }

    static LocalPlatform platform() {
        return LocalPlatform.on(RocketMqStack.shared());
    }

    /** The proxy's settings for the platform's current configuration file; {@code tweak} adjusts them. */
    static ProxyServerOptions config(LocalPlatform platform, UnaryOperator<ProxyServerOptions.Builder> tweak) {
        return config(platform.writeConfig().toString(), tweak);
    }

    /** The proxy's settings for the configuration at {@code configLocation} (an etcd key, say). */
    static ProxyServerOptions config(String configLocation, UnaryOperator<ProxyServerOptions.Builder> tweak) {
        ProxyServerOptions.Builder builder = ProxyServerOptions.builder(configLocation)
                .grpcAddress(new InetSocketAddress("127.0.0.1", 0))
                .tls(SelfSignedCertificate.shared().keyStore(), SelfSignedCertificate.shared().password())
                .token(APPLICATION, TOKEN)
                .commitInterval(Duration.ofMillis(200))
                .drainTimeout(Duration.ofSeconds(2));
        return tweak.apply(builder).build();
    }

    /** A started admin client of cluster A (for {@link #committed}); the caller shuts it down. */
    static DefaultMQAdminExt adminOfClusterA(LocalPlatform platform) throws Exception {
        DefaultMQAdminExt admin = new DefaultMQAdminExt();
        admin.setNamesrvAddr(platform.idcA().nameServerAddress());
        admin.setInstanceName(LocalPlatform.unique("proxy-it-admin"));
        admin.start();
        return admin;
    }

    /** The group's committed consumer offset summed over {@code topic}'s queues, as the broker reports it. */
    static long committed(DefaultMQAdminExt admin, String group, String topic) throws Exception {
        ConsumeStats stats = admin.examineConsumeStats(group, topic);
        return stats.getOffsetTable().entrySet().stream().filter(e -> e.getKey().getTopic().equals(topic))
                .mapToLong(e -> e.getValue().getConsumerOffset()).sum();
    }

    static TestConsumer consumer(ConsumerProxyServer proxy, String name, Predicate<Delivery> autoAck) {
        return TestConsumer.open(name, proxy.grpcAddress(), APPLICATION, TOKEN, autoAck);
    }

    /**
     * Sends {@code count} messages (bodies {@code message-<i>}) synchronously through the SDK; returns their ids
     * in send order. {@code shardingKey} gives message i's key, or null for none.
     */
    static List<String> send(LocalPlatform platform, String logicTopic, int count, IntFunction<String> shardingKey) throws Exception {
        List<String> ids = new ArrayList<>();
        try (MessagingClient client = platform.client("proxy-it-sender");
             Producer producer = client.createProducer(ProducerOptions.defaults())) {
            for (int i = 0; i < count; i++) {
                Message.Builder message = Message.builder(logicTopic).keys("n" + i)
                        .body(("message-" + i).getBytes(StandardCharsets.UTF_8));
                String key = shardingKey.apply(i);
                if (key != null) {
                    message.shardingKey(key);
                }
                ids.add(producer.send(message.build()).messageId());
            }
        }
        return ids;
    }

    /** Sends {@code bytes} as one frame of an authenticated Consume call; returns how the proxy ended the call. */
    static Status rawCall(ConsumerProxyServer proxy, byte[] bytes) throws Exception {
        MethodDescriptor<byte[], byte[]> method = ConsumerProxyGrpc.getConsumeMethod().toBuilder(new RawBytes(), new RawBytes()).build();
        ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", proxy.grpcAddress().getPort(), TestTls.clientCredentials())
                .overrideAuthority("127.0.0.1").maxInboundMessageSize(64 * 1024 * 1024).build();
        try {
            CompletableFuture<Status> ended = new CompletableFuture<>();
            ClientCall<byte[], byte[]> call = channel.newCall(method, CallOptions.DEFAULT);
            call.start(new ClientCall.Listener<>() {
                @Override
                public void onClose(Status status, Metadata trailers) {
                    ended.complete(status);
                }
            }, ProxyHeaders.credentials(ProxyHarness.APPLICATION, ProxyHarness.TOKEN));
            call.request(10);
            call.sendMessage(bytes);
            return ended.get(30, TimeUnit.SECONDS);
        } finally {
            channel.shutdownNow();
            channel.awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    private static final class RawBytes implements MethodDescriptor.Marshaller<byte[]> {
        @Override
        public InputStream stream(byte[] value) {
            return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
            try {
                return stream.readAllBytes();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}

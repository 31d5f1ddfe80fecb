package io.lanemq.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.MessagingClient;
import io.lanemq.api.Producer;
import io.lanemq.api.ProducerOptions;
import io.lanemq.localstack.LocalPlatform;
import io.lanemq.localstack.SendStream;
import io.lanemq.proxy.protocol.Delivery;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/** kill -9 of the proxy under load, then a restart: every message the sender had acknowledged is consumed. */
@Isolated // pushes load or judges a spread: runs alone
class ProxyKillIT {
    private static final int CONSUMERS = 8;

    @Test
    void nothingAcknowledgedToTheSenderIsLostWhenTheProxyIsKilledAndRestarted() throws Exception {
        String group = LocalPlatform.unique("proxy-kill");
        LocalPlatform platform = ProxyHarness.platform().addTopic("proxy-kill", 4, 50, 50, group);
        Path workDir = Files.createDirectories(Path.of("target", "proxy-kill-" + group));
        int grpcPort = ProxyProcess.freePort();
        InetSocketAddress address = new InetSocketAddress("127.0.0.1", grpcPort);
        List<TestConsumer> consumers = new ArrayList<>();
        try (ProxyProcess proxy = ProxyProcess.of(platform.writeConfig(), grpcPort, workDir);
             MessagingClient client = platform.client("proxy-kill-sender");
             Producer producer = client.createProducer(ProducerOptions.defaults())) {
            proxy.start();
            connect(consumers, address, group);
            SendStream stream = new SendStream(producer, "proxy-kill", 400);
            await().atMost(Duration.ofSeconds(60)).until(() -> acked(consumers).size() >= 3_000);

            proxy.kill();
            int ackedBeforeKill = acked(consumers).size();
            proxy.start();
            connect(consumers, address, group);
            await().atMost(Duration.ofSeconds(60)).until(() -> acked(consumers).size() >= ackedBeforeKill + 1_000);
            stream.close();
            await().atMost(Duration.ofSeconds(30)).until(stream::settled);

            Set<String> sent = stream.acknowledgedIds();
            await().atMost(Duration.ofMinutes(2)).until(() -> ackedIds(consumers).containsAll(sent));
            long acks = acked(consumers).size();
            long duplicates = acks - ackedIds(consumers).size();
            System.out.printf("ProxyKillIT: %d acknowledged to the sender, %d consumed, 0 lost, %d duplicates"
                    + " (acked before the kill but not yet committed), %d acks before the kill%n",
                    sent.size(), ackedIds(consumers).size(), duplicates, ackedBeforeKill);
            assertThat(ackedIds(consumers)).containsAll(sent);
        } finally {
            for (TestConsumer consumer : consumers) {
                consumer.close();
            }
            platform.close();
        }
    }

    private static void connect(List<TestConsumer> consumers, InetSocketAddress address, String group) {
        List<TestConsumer> fresh = new ArrayList<>();
        for (int i = 0; i < CONSUMERS; i++) {
            fresh.add(TestConsumer.open("c" + consumers.size() + i, address, ProxyHarness.APPLICATION, ProxyHarness.TOKEN, d -> true)
                    .subscribe(ProxyHarness.APPLICATION, group, "proxy-kill", 64));
        }
        await().atMost(Duration.ofSeconds(60)).until(() -> fresh.stream().allMatch(c -> c.subscribed.get() != null));
        consumers.addAll(fresh);
    }

    private static List<Delivery> acked(List<TestConsumer> consumers) {
        List<Delivery> all = new ArrayList<>();
        consumers.forEach(c -> all.addAll(c.acked));
        return all;
    }

    private static Set<String> ackedIds(List<TestConsumer> consumers) {
        Set<String> ids = new HashSet<>();
        consumers.forEach(c -> c.acked.forEach(d -> ids.add(d.getMessageId())));
        return ids;
    }
}

package io.lanemq.benchmarks.broker;

import io.lanemq.benchmarks.cpu.CpuMeter;
import io.lanemq.testkit.BrokerProfile;
import io.lanemq.testkit.Idc;
import io.lanemq.testkit.IdcSpec;
import io.lanemq.testkit.RocketMqStack;
import io.lanemq.testkit.ServerNode;
import io.lanemq.testkit.StackSpec;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;

/**
 * One stack under one broker profile: a {@value #LOCAL} IDC that clients reach directly and a {@value #REMOTE}
 * IDC whose broker answers through the testkit's latency proxy, as a broker in the other data centre would.
 * Both profiles' stacks run side by side, so the CPU of a measurement is read from this JVM plus the processes
 * of the IDC under test only, never from the other stack idling beside it.
 */
final class ProfiledStack implements AutoCloseable {
    static final String LOCAL = "local";
    static final String REMOTE = "remote";
    private static final int PULL_BYTES = 8 << 20;

    private final String label;
    private final RocketMqStack stack;
    private final Map<Object, Runnable> openClients = new LinkedHashMap<>();
    private int clients;

    private ProfiledStack(String label, RocketMqStack stack) {
        this.label = label;
        this.stack = stack;
    }

    /**
     * Starts the stack; {@code extra} are settings laid over the profile (a variant under trial), {@code jvmOptions}
     * are added to the testkit's options of every server JVM.
     */
    static ProfiledStack start(String label, BrokerProfile profile, Map<String, String> extra, List<String> jvmOptions) {
        List<String> options = new ArrayList<>(StackSpec.DEFAULT_JVM_OPTIONS);
        options.addAll(jvmOptions);
        StackSpec.Builder spec = StackSpec.builder()
                .jvmOptions(options)
                .idc(IdcSpec.of(LOCAL, "cluster-" + label + "-" + LOCAL))
                .idc(IdcSpec.builder(REMOTE).clusterName("cluster-" + label + "-" + REMOTE).latencyProxy(true).build())
                .brokerProfile(profile);
        extra.forEach(spec::brokerProperty);
        return new ProfiledStack(label, RocketMqStack.start(spec.build()));
    }

    String label() {
        return label;
    }

    Idc idc(String name) {
        return stack.idc(name);
    }

    void createTopic(String idcName, String topic, int queues) {
        stack.createTopic(idc(idcName).clusterName(), topic, queues);
    }

    /** A started producer on one IDC, shut down by {@link #release} or with the stack. */
    DefaultMQProducer producer(String idcName) throws MQClientException {
        DefaultMQProducer producer = new DefaultMQProducer("bench-p7-producer");
        producer.setNamesrvAddr(idc(idcName).nameServerAddress());
        producer.setInstanceName(nextInstance(idcName));
        // Bodies travel as they are: zlib on every body over 4 KB would make the 100 KB case measure compression.
        producer.setCompressMsgBodyOverHowmuch(Integer.MAX_VALUE);
        producer.setSendMsgTimeout(10_000);
        producer.start();
        openClients.put(producer, producer::shutdown);
        return producer;
    }

    /**
     * A started push consumer of a new group, from the first offset of {@code topic}, that counts what it receives.
     * A push consumer, not a lite pull one: the lite pull consumer pulls synchronously with long polling on a
     * fixed pool (20 threads), so once 20 of 600 queues are drained every pull thread waits out a 20 s broker
     * suspension while other queues still hold messages, and a drain would measure that wait.
     */
    DefaultMQPushConsumer consumer(String idcName, String group, String topic, int pullBatchSize, AtomicLong received)
            throws MQClientException {
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(group);
        consumer.setNamesrvAddr(idc(idcName).nameServerAddress());
        consumer.setInstanceName(nextInstance(idcName));
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.setPullBatchSize(pullBatchSize);
        // The client's own byte cap per pull (256 KB) would hide the broker's, which is what is compared here.
        consumer.setPullBatchSizeInBytes(PULL_BYTES);
        consumer.setConsumeMessageBatchMaxSize(pullBatchSize);
        // A new group can otherwise stall ~30 s on "subscription is not latest" (NOTES-rocketmq).
        consumer.setHeartbeatBrokerInterval(1_000);
        consumer.subscribe(topic, "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
            received.addAndGet(messages.size());
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        openClients.put(consumer, consumer::shutdown);
        return consumer;
    }

    /** Shuts a client of this stack down now, so that its background threads cost nothing in the other's turn. */
    void release(Object client) {
        Runnable shutdown = openClients.remove(client);
        if (shutdown != null) {
            shutdown.run();
        }
    }

    /** CPU used so far by this JVM (the clients) and by the name server and brokers of one IDC. */
    CpuMeter.Reading cpu(String idcName) {
        long own = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
        return new CpuMeter.Reading(System.nanoTime(), own, serverCpuNanos(idc(idcName)));
    }

    /** CPU used so far by every server of the stack, nothing of this JVM: for the idle reading. */
    CpuMeter.Reading serverCpu() {
        long servers = serverCpuNanos(idc(LOCAL)) + serverCpuNanos(idc(REMOTE));
        return new CpuMeter.Reading(System.nanoTime(), 0, servers);
    }

    private static long serverCpuNanos(Idc idc) {
        List<ServerNode> nodes = new ArrayList<>(idc.brokers());
        nodes.add(idc.nameServer());
        long sum = 0;
        for (ServerNode node : nodes) {
            OptionalLong pid = node.pid();
            if (pid.isEmpty()) {
                throw new IllegalStateException(node + " is not running");
            }
            sum += ProcessHandle.of(pid.getAsLong()).flatMap(p -> p.info().totalCpuDuration())
                    .map(Duration::toNanos).orElseThrow(() -> new IllegalStateException("no CPU time of " + node));
        }
        return sum;
    }

    private String nextInstance(String idcName) {
        // One client instance per client: RocketMQ caches instances by client id, and the stacks must not share.
        return "bench-p7-" + label + "-" + idcName + "-" + (++clients);
    }

    @Override
    public void close() {
        List<Runnable> shutdowns = new ArrayList<>(openClients.values());
        openClients.clear();
        for (int i = shutdowns.size() - 1; i >= 0; i--) {
            shutdowns.get(i).run();
        }
        stack.close();
    }
}

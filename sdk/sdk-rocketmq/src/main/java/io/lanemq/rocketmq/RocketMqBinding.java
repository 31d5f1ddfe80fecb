package io.lanemq.rocketmq;

import io.lanemq.api.MessagingException;
import io.lanemq.api.spi.BoundConsumer;
import io.lanemq.api.spi.BoundOffsetReset;
import io.lanemq.api.spi.BoundConsumerSpec;
import io.lanemq.api.spi.BoundListener;
import io.lanemq.api.spi.BoundProducer;
import io.lanemq.api.spi.BoundProducerSpec;
import io.lanemq.api.spi.ClusterEndpoint;
import io.lanemq.api.spi.MessagingBinding;
import io.lanemq.support.TcpReach;
import java.util.Objects;
import java.util.Optional;
import org.apache.rocketmq.common.message.MessageClientIDSetter;

/**
 * The Apache RocketMQ binding (remoting client 5.x), found through {@link java.util.ServiceLoader}
 * under the name {@code rocketmq}. Thread-safe and stateless: every producer and consumer it
 * creates owns its own RocketMQ client instance (its own {@code instanceName}, named after the
 * cluster), so nothing is shared between clusters or between producers, and closing one affects no
 * other.
 *
 * <p>Tuning comes from the {@link io.lanemq.api.spi.ClusterEndpoint} properties below; all are
 * optional, and any other {@code rocketmq.*} key is refused with an error naming it.
 * <table>
 *   <caption>Endpoint properties</caption>
 *   <tr><th>property</th><th>meaning</th><th>default</th></tr>
 *   <tr><td>{@code rocketmq.heartbeatBrokerIntervalMs}</td><td>heartbeat to brokers; short values let a new
 *       consumer group receive messages sooner (tests use ~1000)</td><td>RocketMQ's, 30000</td></tr>
 *   <tr><td>{@code rocketmq.pollNameServerIntervalMs}</td><td>how often routes are refreshed from the name
 *       server</td><td>RocketMQ's, 30000</td></tr>
 *   <tr><td>{@code rocketmq.persistConsumerOffsetIntervalMs}</td><td>how often consumed offsets are
 *       committed to the broker</td><td>RocketMQ's, 5000</td></tr>
 *   <tr><td>{@code rocketmq.retriesWithinCluster}</td><td>extra attempts of a send on other brokers of the
 *       same cluster, before the core fails over to another cluster (not for sharded sends)</td><td>1</td></tr>
 *   <tr><td>{@code rocketmq.pullBatchSize}</td><td>messages fetched per pull, 1-1024</td><td>RocketMQ's, 32</td></tr>
 *   <tr><td>{@code rocketmq.shutdownAwaitMs}</td><td>how long closing a consumer waits for messages being
 *       consumed</td><td>10000</td></tr>
 * </table>
 *
 * <pre>{@code
 * ClusterEndpoint endpoint = new ClusterEndpoint("idc-a", "idc-a", "127.0.0.1:9876",
 *     Map.of("rocketmq.heartbeatBrokerIntervalMs", "1000"));
 * }</pre>
 */
public final class RocketMqBinding implements MessagingBinding {
    /** The name the platform configuration uses for this binding. */
    public static final String NAME = "rocketmq";

    @Override
    public String name() {
        return NAME;
    }

    /** RocketMQ's client-side unique id ({@code UNIQ_KEY}), which {@code mqadmin queryMsgByUniqueKey} finds. */
    @Override
    public Optional<String> newMessageId() {
        return Optional.of(MessageClientIDSetter.createUniqID());
    }

    @Override
    public BoundProducer createProducer(BoundProducerSpec spec) throws MessagingException {
        return RocketMqProducer.start(Objects.requireNonNull(spec, "spec"));
    }

    @Override
    public Optional<String> unreachable(ClusterEndpoint cluster) {
        return TcpReach.noneAccepts(cluster.nameServerAddress(), TcpReach.NAME_SERVER_CONNECT_TIMEOUT).map(failures ->
                "no name server of cluster '" + cluster.clusterName() + "' accepted a connection (" + failures + ")");
    }

    /** See {@link OffsetResets}. */
    @Override
    public BoundOffsetReset resetOffsets(ClusterEndpoint cluster, String consumerGroup, String topic, long timestampMillis)
            throws MessagingException {
        return OffsetResets.reset(Objects.requireNonNull(cluster, "cluster"), consumerGroup, topic, timestampMillis);
    }

    @Override
    public BoundConsumer createConsumer(BoundConsumerSpec spec, BoundListener listener) throws MessagingException {
        return RocketMqConsumer.start(Objects.requireNonNull(spec, "spec"), Objects.requireNonNull(listener, "listener"));
    }
}

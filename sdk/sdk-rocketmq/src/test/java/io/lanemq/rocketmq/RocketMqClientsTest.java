package io.lanemq.rocketmq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.api.TransactionResolution;
import io.lanemq.api.spi.BoundConsumerSpec;
import io.lanemq.api.spi.BoundConsumerSpec.StartPosition;
import io.lanemq.api.spi.BoundProducerSpec;
import io.lanemq.api.spi.ClusterEndpoint;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.junit.jupiter.api.Test;

/** Configuration only: nothing here is started, so no network is touched. */
class RocketMqClientsTest {
    private static final ClusterEndpoint IDC_A = new ClusterEndpoint("idc-a-main", "idc-a", "127.0.0.1:9876",
            Map.of("rocketmq.heartbeatBrokerIntervalMs", "1000", "rocketmq.retriesWithinCluster", "2",
                    "rocketmq.pullBatchSize", "16"));

    private static BoundProducerSpec producerSpec(int maxBodyBytes) {
        return new BoundProducerSpec(IDC_A, "orders-producer", Duration.ofMillis(2500), maxBodyBytes, Optional.empty());
    }

    private static DefaultMQProducer producer(BoundProducerSpec spec) throws Exception {
        return RocketMqClients.newProducer(spec, EndpointTuning.of(spec.cluster()), null, null);
    }

    @Test
    void configuresAProducerFromSpecAndEndpoint() throws Exception {
        DefaultMQProducer producer = producer(producerSpec(1024));

        assertThat(producer).isNotInstanceOf(TransactionMQProducer.class);
        assertThat(producer.getProducerGroup()).isEqualTo("orders-producer");
        assertThat(producer.getNamesrvAddr()).isEqualTo("127.0.0.1:9876");
        assertThat(producer.getInstanceName()).startsWith("lanemq-idc-a-main-");
        assertThat(producer.getSendMsgTimeout()).isEqualTo(2500);
        assertThat(producer.isSendLatencyFaultEnable()).isTrue();
        assertThat(producer.getRetryTimesWhenSendFailed()).isEqualTo(2);
        assertThat(producer.getRetryTimesWhenSendAsyncFailed()).isEqualTo(2);
        assertThat(producer.getHeartbeatBrokerInterval()).isEqualTo(1000);
        // Never below RocketMQ's own default: the core owns the body limit.
        assertThat(producer.getMaxMessageSize()).isEqualTo(4 * 1024 * 1024);
    }

    @Test
    void maxMessageSizeCoversALargerBodyLimit() throws Exception {
        assertThat(producer(producerSpec(8 * 1024 * 1024)).getMaxMessageSize()).isEqualTo(8 * 1024 * 1024);
    }

    @Test
    void everyClientGetsItsOwnInstanceNamedAfterItsCluster() throws Exception {
        DefaultMQProducer first = producer(producerSpec(1024));
        DefaultMQProducer second = producer(producerSpec(1024));
        assertThat(first.getInstanceName()).isNotEqualTo(second.getInstanceName());
        assertThat(first.buildMQClientId()).isNotEqualTo(second.buildMQClientId());
    }

    @Test
    void aProducerWithACheckHandlerIsTransactional() throws Exception {
        BoundProducerSpec spec = new BoundProducerSpec(IDC_A, "orders-producer", Duration.ofSeconds(3), 1024,
                Optional.of(prepared -> TransactionResolution.COMMIT));
        TransactionBridge bridge = new TransactionBridge(spec.transactionCheckHandler().orElseThrow(), "idc-a-main", "orders-producer");
        DefaultMQProducer producer = RocketMqClients.newProducer(spec, EndpointTuning.of(IDC_A), bridge, null);
        assertThat(producer).isInstanceOf(TransactionMQProducer.class);
        assertThat(((TransactionMQProducer) producer).getTransactionListener()).isSameAs(bridge);
    }

    @Test
    void rejectsImpossibleProducerSpecs() {
        assertThatThrownBy(() -> producer(producerSpec(0)))
                .isInstanceOf(InvalidConfigurationException.class).hasMessageContaining("maxBodyBytes");
        assertThatThrownBy(() -> producer(new BoundProducerSpec(IDC_A, "g", Duration.ZERO, 1024, Optional.empty())))
                .isInstanceOf(InvalidConfigurationException.class).hasMessageContaining("sendTimeout");
    }

    @Test
    void configuresAPushConsumerFromSpecAndEndpoint() throws Exception {
        BoundConsumerSpec spec = BoundConsumerSpec.builder(IDC_A, "billing", "orders_a").tagFilter("paid || refunded")
                .consumeThreads(4).maxDeliveryAttempts(5).startPosition(StartPosition.EARLIEST).build();
        DefaultMQPushConsumer consumer = RocketMqClients.newPushConsumer(spec, EndpointTuning.of(IDC_A));

        assertThat(consumer.getConsumerGroup()).isEqualTo("billing");
        assertThat(consumer.getNamesrvAddr()).isEqualTo("127.0.0.1:9876");
        assertThat(consumer.getInstanceName()).startsWith("lanemq-idc-a-main-");
        assertThat(consumer.getConsumeThreadMin()).isEqualTo(4);
        assertThat(consumer.getConsumeThreadMax()).isEqualTo(4);
        assertThat(consumer.getMaxReconsumeTimes()).isEqualTo(4);
        assertThat(consumer.getConsumeMessageBatchMaxSize()).isEqualTo(1);
        assertThat(consumer.getConsumeFromWhere()).isEqualTo(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        assertThat(consumer.getPullBatchSize()).isEqualTo(16);
        assertThat(consumer.getHeartbeatBrokerInterval()).isEqualTo(1000);
        assertThat(consumer.getAwaitTerminationMillisWhenShutdown()).isEqualTo(EndpointTuning.DEFAULT_SHUTDOWN_AWAIT_MS);
    }

    @Test
    void latestStartsFromTheLastOffsetAndOneAttemptMeansNoRedelivery() throws Exception {
        BoundConsumerSpec spec = BoundConsumerSpec.builder(IDC_A, "billing", "orders_a").ordered(true).consumeThreads(1)
                .maxDeliveryAttempts(1).startPosition(StartPosition.LATEST).build();
        DefaultMQPushConsumer consumer = RocketMqClients.newPushConsumer(spec, EndpointTuning.of(IDC_A));
        assertThat(consumer.getConsumeFromWhere()).isEqualTo(ConsumeFromWhere.CONSUME_FROM_LAST_OFFSET);
        assertThat(consumer.getMaxReconsumeTimes()).isZero();
    }

    @Test
    void aMemberTagTravelsInTheInstanceNameAndIsReadBackFromTheClientId() {
        String instanceName = RocketMqClients.instanceName("cluster-a", java.util.Optional.of("A.X~10.0.0.5~7070"));

        assertThat(RocketMqClients.memberTag("10.0.0.9@" + instanceName)).contains("A.X~10.0.0.5~7070");
        assertThat(RocketMqClients.memberTag("10.0.0.9@" + instanceName + "@unit-1")).contains("A.X~10.0.0.5~7070");
        assertThat(RocketMqClients.memberTag("10.0.0.9@" + RocketMqClients.instanceName("cluster-a"))).isEmpty();
        assertThat(RocketMqClients.memberTag("10.0.0.9@lanemq-cluster-a-1-2~")).isEmpty();
    }
}

package io.lanemq.rocketmq.reader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lanemq.api.MessagingException;
import io.lanemq.api.spi.ClusterEndpoint;
import io.lanemq.rocketmq.FetchedMessage;
import io.lanemq.testkit.Idc;
import io.lanemq.testkit.RocketMqStack;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** A reader starts only where its topic can be read: on the shared stack's cluster idc-a. */
class QueueReaderIT {

    private static QueueReader<NoLedger> reader(String group, String topic) throws Exception {
        Idc idc = RocketMqStack.shared().idc("idc-a");
        ClusterEndpoint endpoint = new ClusterEndpoint(idc.clusterName(), idc.name(), idc.nameServerAddress(), Map.of());
        return QueueReader.<NoLedger>builder(group, endpoint)
                .threadName("queue-reader-it-" + group)
                .topics(topic)
                .ledgers(queue -> new NoLedger())
                .policy((List<FetchedMessage> batch) -> { })
                .build();
    }

    @Test
    void aTopicTheNameServerDoesNotKnowFailsTheStartNamingItInsteadOfReadingNothing() throws Exception {
        String topic = "lanemq_it_reader_unknown_" + ProcessHandle.current().pid();
        try (QueueReader<NoLedger> reader = reader("lanemq_it_reader_group_u", topic)) {
            assertThatThrownBy(reader::start).isInstanceOf(MessagingException.class)
                    .hasMessageContaining(topic).hasMessageContaining(RocketMqStack.shared().idc("idc-a").clusterName());
            assertThat(reader.isReading()).as("a reader whose start failed reads").isFalse();
        }
    }

    @Test
    void aRoutableTopicStartsReading() throws Exception {
        String topic = "lanemq_it_reader_known_" + ProcessHandle.current().pid();
        RocketMqStack.shared().createTopic(RocketMqStack.shared().idc("idc-a").clusterName(), topic, 2);
        try (QueueReader<NoLedger> reader = reader("lanemq_it_reader_group_k", topic)) {
            reader.start();
            assertThat(reader.isReading()).isTrue();
        }
    }

    private static final class NoLedger implements OffsetLedger {
        @Override
        public OptionalLong committableOffset() {
            return OptionalLong.empty();
        }

        @Override
        public void revoke() {
        }
    }
}

package io.lanemq.dialtest;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.InstantSource;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.Test;

class ProbeConsumerTest {

    private static final String US = "127.0.0.1@lanemq-dialtest-idc-b-1";
    private static final List<MessageQueue> QUEUES = IntStream.range(0, 4)
        .mapToObj(i -> new MessageQueue("lanemq_dialtest_probe", "idc-b-broker-0", i)).toList();

    private final ProbeConsumer consumer = new ProbeConsumer("idc-b", "127.0.0.1:9876", "lanemq-dialtest-idc-b-1",
        DialTestOptions.builder().nameServer("idc-b", "127.0.0.1:9876").build(), new NoAcks(), new DialTestMetrics(new SimpleMeterRegistry()),
        InstantSource.system());

    @Test
    void aLoneConsumerTheBrokerListsTwiceAfterAPartitionStillHoldsEveryQueue() {
        // The broker lists one client id per connection it holds: the dead one from before the partition and the new one.
        assertThat(consumer.allocation().allocate("dialtest", US, QUEUES, List.of(US, US)))
            .as("queues of the healed broker this consumer reads; none may be left to a member that does not exist")
            .containsExactlyInAnyOrderElementsOf(QUEUES);
    }

    @Test
    void twoConsumersOfTheGroupStillShareTheQueues() {
        String other = "127.0.0.2@lanemq-dialtest-idc-b-2";
        assertThat(consumer.allocation().allocate("dialtest", US, QUEUES, List.of(US, other, US)))
            .as("this consumer's half of the queues, its stale connection not counted as a third member")
            .hasSize(2);
    }

    /** The allocation never acks anything. */
    private static final class NoAcks implements AckSender {
        @Override
        public int send(String host, int port, List<AckFrame> acks) {
            return acks.size();
        }

        @Override
        public void close() {
        }
    }
}

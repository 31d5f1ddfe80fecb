package io.lanemq.rocketmq;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.apache.rocketmq.client.consumer.rebalance.AllocateMessageQueueAveragely;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.Test;

class DistinctClientAllocationTest {

    private static final String GROUP = "LANEMQ_DELAY_SERVER";
    private final DistinctClientAllocation allocation = new DistinctClientAllocation(new AllocateMessageQueueAveragely());
    private final List<MessageQueue> queues = queues(4);

    @Test
    void aLoneServerListedTwiceByTheBrokerStillReadsEveryQueue() {
        // What a broker answers after a silent partition: the server's new connection and its dead one.
        List<String> listed = List.of("10.0.0.1@delay-b", "10.0.0.1@delay-b");

        assertThat(new AllocateMessageQueueAveragely().allocate(GROUP, "10.0.0.1@delay-b", queues, listed))
                .as("RocketMQ's own strategy: half the queues go to a server that does not exist").hasSize(2);
        assertThat(allocation.allocate(GROUP, "10.0.0.1@delay-b", queues, listed)).containsExactlyElementsOf(queues);
    }

    @Test
    void serversListedSeveralTimesSplitTheQueuesAsIfListedOnceAndTogetherTakeEachQueueOnce() {
        List<String> listed = List.of("10.0.0.1@x", "10.0.0.2@y", "10.0.0.2@y", "10.0.0.1@x", "10.0.0.2@y");
        List<MessageQueue> x = allocation.allocate(GROUP, "10.0.0.1@x", queues, listed);
        List<MessageQueue> y = allocation.allocate(GROUP, "10.0.0.2@y", queues, listed);

        assertThat(x).containsExactlyElementsOf(new AllocateMessageQueueAveragely().allocate(GROUP, "10.0.0.1@x", queues,
                List.of("10.0.0.1@x", "10.0.0.2@y")));
        List<MessageQueue> both = new ArrayList<>(x);
        both.addAll(y);
        assertThat(both).containsExactlyInAnyOrderElementsOf(queues);
    }

    @Test
    void theOrderTheBrokerListsServersInDoesNotChangeTheAllocation() {
        List<MessageQueue> sorted = allocation.allocate(GROUP, "b", queues, List.of("a", "b", "b", "c"));
        List<MessageQueue> shuffled = allocation.allocate(GROUP, "b", queues, List.of("c", "b", "a", "b"));

        assertThat(shuffled).isEqualTo(sorted).hasSize(1);
    }

    private static List<MessageQueue> queues(int n) {
        List<MessageQueue> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new MessageQueue("LANEMQ_DELAY", "idc-b-broker-0", i));
        }
        return out;
    }
}

package io.lanemq.rocketmq;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.Test;

class ShardingKeySelectorTest {

    private static List<MessageQueue> queues(int count) {
        List<MessageQueue> queues = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            queues.add(new MessageQueue("orders", "broker-a", i));
        }
        return queues;
    }

    @Test
    void sameKeyAlwaysPicksTheSameQueue() {
        List<MessageQueue> queues = queues(8);
        Message message = new Message("orders", new byte[] {1});
        MessageQueue first = ShardingKeySelector.INSTANCE.select(queues, message, "customer-7");
        for (int i = 0; i < 100; i++) {
            assertThat(ShardingKeySelector.INSTANCE.select(queues(8), message, "customer-7")).isEqualTo(first);
        }
    }

    @Test
    void queueIndexIsPinned() {
        // String.hashCode is specified by the JLS, so these never change between JVMs or releases;
        // a change here would move every existing key to another queue and break its order.
        assertThat(ShardingKeySelector.queueIndex("customer-7", 8)).isEqualTo(Math.floorMod("customer-7".hashCode(), 8));
        assertThat(ShardingKeySelector.queueIndex("a", 8)).isEqualTo(97 % 8);
        assertThat(ShardingKeySelector.queueIndex("order-42", 16)).isEqualTo(13);
    }

    @Test
    void negativeHashesStayInRange() {
        assertThat("polygenelubricants".hashCode()).isEqualTo(Integer.MIN_VALUE);
        assertThat(ShardingKeySelector.queueIndex("polygenelubricants", 7)).isBetween(0, 6);
        for (int i = 0; i < 10_000; i++) {
            assertThat(ShardingKeySelector.queueIndex("key-" + i, 6)).isBetween(0, 5);
        }
    }

    @Test
    void keysSpreadOverAllQueues() {
        boolean[] seen = new boolean[8];
        for (int i = 0; i < 1000; i++) {
            seen[ShardingKeySelector.queueIndex("customer-" + i, 8)] = true;
        }
        assertThat(seen).containsOnly(true);
    }
}

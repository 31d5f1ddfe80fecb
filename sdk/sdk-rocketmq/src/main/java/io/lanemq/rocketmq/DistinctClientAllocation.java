package io.lanemq.rocketmq;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.apache.rocketmq.client.consumer.AllocateMessageQueueStrategy;
import org.apache.rocketmq.common.message.MessageQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Allocates a topic's queues over the members of a consumer group, counting each member once however many
 * connections the broker still lists for it. Used by every RocketMQ consumer of this project that is rebalanced by
 * RocketMQ: the SDK's push consumers, the consumer proxy's and the delay server's readers, the dial test's probe
 * consumers.
 *
 * <p><b>Why.</b> A broker answers "who is in this group" with one client id per connection it holds
 * ({@code ConsumerGroupInfo.getAllClientId}, RocketMQ 5.3.3), duplicates included. After a silent network
 * partition of a cluster, a member's client has given its old connection up and opened a new one, but the
 * broker never saw the old one close (the packets vanished) and keeps it until a write to it fails or it expires
 * (two minutes without heartbeats). RocketMQ's own strategies then see {@code [us, us]}: a lone member takes
 * the first copy's half of the queues and leaves the other half to a second member that does not exist. Nobody
 * reads those queues, so the healed cluster's messages on them wait, and what was already read from them is
 * handed over (to nobody) and read again later, for up to those two minutes after the heal. Every member of the
 * group runs this, so all of them compute the same allocation.
 */
public final class DistinctClientAllocation implements AllocateMessageQueueStrategy {

    private static final Logger log = LoggerFactory.getLogger(DistinctClientAllocation.class);

    private final AllocateMessageQueueStrategy delegate;
    /** The last listing logged, so a stale connection is reported once, not at every rebalance while it lasts. */
    private volatile List<String> lastReported = List.of();

    public DistinctClientAllocation(AllocateMessageQueueStrategy delegate) {
        this.delegate = delegate;
    }

    @Override
    public List<MessageQueue> allocate(String consumerGroup, String currentCID, List<MessageQueue> mqAll,
            List<String> cidAll) {
        if (cidAll == null) {
            return delegate.allocate(consumerGroup, currentCID, mqAll, null);
        }
        // Sorted, as RocketMQ sorts the list it passes: every server must see the same order.
        List<String> distinct = new ArrayList<>(new TreeSet<>(cidAll));
        if (distinct.size() == cidAll.size()) {
            lastReported = List.of();
        } else if (!cidAll.equals(lastReported)) {
            lastReported = List.copyOf(cidAll);
            log.info("Group {} lists {} connections of {} servers (a stale connection after a network fault): "
                    + "allocating over the {} servers", consumerGroup, cidAll.size(), distinct.size(), distinct.size());
        }
        return delegate.allocate(consumerGroup, currentCID, mqAll, distinct);
    }

    @Override
    public String getName() {
        return delegate.getName();
    }
}

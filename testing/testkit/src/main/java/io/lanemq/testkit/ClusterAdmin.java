package io.lanemq.testkit;

import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.constant.PermName;
import org.apache.rocketmq.remoting.RPCHook;
import org.apache.rocketmq.remoting.exception.RemotingException;
import org.apache.rocketmq.remoting.protocol.admin.TopicOffset;
import org.apache.rocketmq.remoting.protocol.body.ClusterInfo;
import org.apache.rocketmq.remoting.protocol.route.BrokerData;
import org.apache.rocketmq.remoting.protocol.route.QueueData;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;

/**
 * Admin access to one IDC's cluster through its name server: broker readiness and topic creation.
 *
 * <p>Each instance has its own {@code instanceName}: RocketMQ caches client instances per client id, and two
 * admins of one JVM talking to different name servers must not share one.
 */
final class ClusterAdmin implements AutoCloseable {

    private static final long TIMEOUT_MILLIS = 3_000;
    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    private final String clusterName;
    private final String nameServerAddress;
    private final RPCHook signer;
    private final boolean tls;
    private DefaultMQAdminExt admin;

    /**
     * {@code signer}: the testkit admin's request signer on brokers with access control on, else null; {@code tls}:
     * whether the servers accept TLS only.
     */
    ClusterAdmin(String clusterName, String nameServerAddress, RPCHook signer, boolean tls) {
        this.tls = tls;
        this.clusterName = clusterName;
        this.nameServerAddress = nameServerAddress;
        this.signer = signer;
    }

    /** Whether the name server lists {@code broker} under its broker name and id (master or slave) in this cluster. */
    boolean lists(BrokerNode broker) {
        try {
            ClusterInfo info = admin().examineBrokerClusterInfo();
            Set<String> names = info.getClusterAddrTable().get(clusterName);
            BrokerData data = info.getBrokerAddrTable().get(broker.brokerName());
            return names != null && names.contains(broker.brokerName()) && data != null
                && broker.address().equals(data.getBrokerAddrs().get((long) broker.role().brokerId()));
        } catch (Exception e) {
            return false;
        }
    }

    /** Whether {@code master} reports a slave connected to its HA port, so its synchronous sends can complete. */
    boolean replicates(BrokerNode master) {
        try {
            return admin().getBrokerHAStatus(master.address()).getInSyncSlaveNums() > 0;
        } catch (Exception e) {
            return false;
        }
    }

    /**
     * Creates or updates {@code topic} on every master and every running slave, then waits until the name server
     * routes to all masters. A slave copies its master's topics only once a minute (SlaveSynchronize.syncAll),
     * and answers pulls of a topic it does not have with TOPIC_NOT_EXIST, so a topic just created would not be
     * readable on it if its master died within that minute; a stopped slave gets the topic at its first sync.
     */
    void createTopic(List<BrokerNode> brokers, String topic, int queues, Deadline deadline) {
        TopicConfig config = new TopicConfig(topic, queues, queues, PermName.PERM_READ | PermName.PERM_WRITE);
        List<BrokerNode> masters = brokers.stream().filter(b -> b.role() == BrokerNode.Role.MASTER).toList();
        for (BrokerNode broker : brokers) {
            if (broker.role() == BrokerNode.Role.SLAVE && !broker.isAlive()) {
                continue;
            }
            // Again on a remoting failure, on a new admin client, until the deadline. A broker answers a topic
            // creation only after registering the topic with its name servers (registerIncrementBrokerData,
            // synchronized with the periodic registration), so right after a name server was unreachable
            // (NetworkFaults) the broker may answer late, for more than one 3 s timeout in a row. A new client also
            // drops a connection the broker may have forgotten during a silent fault.
            while (true) {
                try {
                    admin().createAndUpdateTopicConfig(broker.address(), config);
                    break;
                } catch (RemotingException e) {
                    if (deadline.expired()) {
                        throw cannotCreate(topic, queues, broker, e);
                    }
                    close();
                } catch (Exception e) {
                    throw cannotCreate(topic, queues, broker, e);
                }
            }
        }
        if (!deadline.await(() -> routes(topic, queues, masters))) {
            throw new TestkitException("topic " + topic + " was created in " + clusterName + " but the name server "
                + nameServerAddress + " did not route it to " + masters + " within "
                + deadline.budget().toSeconds() + " s");
        }
    }

    /** Creates every application account on every broker (see {@link BrokerAcl}), again on a remoting failure until the deadline. */
    void createAclUsers(List<BrokerNode> brokers, List<AclUser> users, Deadline deadline) {
        for (BrokerNode broker : brokers) {
            for (AclUser user : users) {
                while (true) {
                    try {
                        BrokerAcl.create(admin(), broker.address(), user);
                        break;
                    } catch (RemotingException e) {
                        if (deadline.expired()) {
                            throw cannotCreateUser(user, broker, e);
                        }
                        close();
                    } catch (Exception e) {
                        throw cannotCreateUser(user, broker, e);
                    }
                }
            }
        }
    }

    private static TestkitException cannotCreateUser(AclUser user, BrokerNode broker, Exception e) {
        return new TestkitException("cannot create ACL user " + user.name() + " on " + broker + ": " + e.getMessage(), e);
    }

    /** Messages stored in {@code topic} on this cluster's brokers since it was created: the sum of its queues' max offsets. */
    long storedMessages(String topic) {
        try {
            return admin().examineTopicStats(topic).getOffsetTable().values().stream()
                .mapToLong(TopicOffset::getMaxOffset).sum();
        } catch (Exception e) {
            throw new TestkitException("cannot read the offsets of topic " + topic + " in " + clusterName + ": "
                + e.getMessage(), e);
        }
    }

    /**
     * Moves {@code group}'s offsets in {@code topic} back to the first message stored at or after {@code timestampMillis}, on
     * every queue; the brokers tell the group's online consumers to drop what they hold and pull again from there, so
     * messages already consumed and committed are delivered again: a real broker redelivery. Returns the queues moved.
     */
    int rewind(String topic, String group, long timestampMillis) {
        try {
            return admin().resetOffsetByTimestamp(topic, group, timestampMillis, true).size();
        } catch (Exception e) {
            throw new TestkitException("cannot rewind group " + group + " on topic " + topic + " in " + clusterName + ": "
                + e.getMessage(), e);
        }
    }

    private static TestkitException cannotCreate(String topic, int queues, BrokerNode broker, Exception e) {
        return new TestkitException("cannot create topic " + topic + " with " + queues + " queues on " + broker + ": "
            + e.getMessage(), e);
    }

    private boolean routes(String topic, int queues, List<BrokerNode> brokers) {
        try {
            TopicRouteData route = admin().examineTopicRouteInfo(topic);
            for (BrokerNode broker : brokers) {
                boolean queuesRouted = route.getQueueDatas().stream().anyMatch(q -> matches(q, broker, queues));
                boolean addressRouted = route.getBrokerDatas().stream().anyMatch(b ->
                    b.getBrokerName().equals(broker.brokerName())
                        && broker.address().equals(b.getBrokerAddrs().get(MixAll.MASTER_ID)));
                if (!queuesRouted || !addressRouted) {
                    return false;
                }
            }
            return true;
        } catch (Exception e) {
            // "No topic route info" until the broker's registration reaches the name server.
            return false;
        }
    }

    private static boolean matches(QueueData q, BrokerNode broker, int queues) {
        return q.getBrokerName().equals(broker.brokerName())
            && q.getWriteQueueNums() == queues && q.getReadQueueNums() == queues;
    }

    private synchronized DefaultMQAdminExt admin() throws MQClientException {
        if (admin == null) {
            DefaultMQAdminExt created = new DefaultMQAdminExt(signer, TIMEOUT_MILLIS);
            created.setNamesrvAddr(nameServerAddress);
            created.setInstanceName("lanemq-testkit-admin-" + clusterName + "-" + ProcessHandle.current().pid()
                + "-" + SEQUENCE.incrementAndGet());
            created.setVipChannelEnabled(false);
            created.setUseTLS(tls);
            created.start();
            admin = created;
        }
        return admin;
    }

    @Override
    public synchronized void close() {
        if (admin != null) {
            admin.shutdown();
            admin = null;
        }
    }
}

package io.lanemq.dialtest;

import io.lanemq.support.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.constant.PermName;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.protocol.body.ClusterInfo;
import org.apache.rocketmq.remoting.protocol.route.BrokerData;
import org.apache.rocketmq.remoting.protocol.route.QueueData;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;

/**
 * Discovery and set-up through one name server (rocketmq-tools admin): every master broker of every cluster the
 * name server knows, and the probe topic with its queues on each of them, created where missing.
 */
final class ProbeTopicAdmin implements AutoCloseable {

    private static final long ADMIN_TIMEOUT_MILLIS = 5_000;
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final int READ_WRITE = PermName.PERM_READ | PermName.PERM_WRITE;

    private final String label;
    private final String nameServer;
    private final DefaultMQAdminExt admin;
    private final Ticker ticker;

    ProbeTopicAdmin(String label, String nameServer, String instanceName, Ticker ticker) throws MQClientException {
        this.label = label;
        this.ticker = ticker;
        this.nameServer = nameServer;
        admin = new DefaultMQAdminExt(ADMIN_TIMEOUT_MILLIS);
        admin.setNamesrvAddr(nameServer);
        admin.setInstanceName(instanceName);
        admin.setVipChannelEnabled(false);
        admin.start();
    }

    /**
     * Makes sure the probe topic has at least {@code queues} read-write queues on every master broker of every
     * cluster of this name server, and returns the brokers with their queues once the name server routes to all.
     *
     * @throws DialTestException naming the name server and what is missing
     */
    List<BrokerTarget> ensureProbeTopic(String topic, int queues, Duration timeout) {
        Map<String, Master> brokers = masters();
        if (brokers.isEmpty()) {
            throw new DialTestException("name server " + label + " (" + nameServer + ") lists no master broker");
        }
        TopicRouteData route = route(topic);
        for (Map.Entry<String, Master> broker : brokers.entrySet()) {
            if (queuesOn(route, broker.getKey()) < queues) {
                create(topic, queues, broker.getKey(), broker.getValue().address());
            }
        }
        long deadline = ticker.read() + timeout.toNanos();
        while (true) {
            route = route(topic);
            List<BrokerTarget> targets = new ArrayList<>();
            List<String> missing = new ArrayList<>();
            for (Map.Entry<String, Master> broker : brokers.entrySet()) {
                int routed = queuesOn(route, broker.getKey());
                if (routed < queues) {
                    missing.add(broker.getKey());
                } else {
                    targets.add(target(topic, broker.getKey(), broker.getValue(), routed));
                }
            }
            if (missing.isEmpty()) {
                return targets;
            }
            if (ticker.read() - deadline > 0) {
                throw new DialTestException("topic " + topic + " was created, but name server " + label + " ("
                    + nameServer + ") does not route it to " + missing + " within " + timeout.toSeconds() + " s");
            }
            LockSupport.parkNanos(POLL_NANOS); // polling the name server's route, which lags the broker by ~100 ms
        }
    }

    /** Master brokers by broker name, sorted. */
    private Map<String, Master> masters() {
        ClusterInfo info;
        try {
            info = admin.examineBrokerClusterInfo();
        } catch (Exception e) {
            throw new DialTestException("cannot read the clusters of name server " + label + " (" + nameServer
                + "): " + e.getMessage(), e);
        }
        Map<String, Master> masters = new TreeMap<>();
        Map<String, Set<String>> clusters = info.getClusterAddrTable() == null ? Map.of() : info.getClusterAddrTable();
        for (Map.Entry<String, Set<String>> cluster : clusters.entrySet()) {
            for (String brokerName : cluster.getValue()) {
                BrokerData data = info.getBrokerAddrTable().get(brokerName);
                String address = data == null ? null : data.getBrokerAddrs().get(MixAll.MASTER_ID);
                if (address != null) {
                    masters.put(brokerName, new Master(cluster.getKey(), address));
                }
            }
        }
        return masters;
    }

    private TopicRouteData route(String topic) {
        try {
            return admin.examineTopicRouteInfo(topic);
        } catch (Exception e) {
            return null; // "No topic route info" until the topic exists somewhere
        }
    }

    private static int queuesOn(TopicRouteData route, String brokerName) {
        if (route == null) {
            return 0;
        }
        for (QueueData q : route.getQueueDatas()) {
            if (q.getBrokerName().equals(brokerName) && PermName.isWriteable(q.getPerm())
                && PermName.isReadable(q.getPerm())) {
                return Math.min(q.getWriteQueueNums(), q.getReadQueueNums());
            }
        }
        return 0;
    }

    private void create(String topic, int queues, String brokerName, String address) {
        try {
            admin.createAndUpdateTopicConfig(address, new TopicConfig(topic, queues, queues, READ_WRITE));
        } catch (Exception e) {
            throw new DialTestException("cannot create probe topic " + topic + " with " + queues + " queues on broker "
                + brokerName + " (" + address + ") of name server " + label + ": " + e.getMessage(), e);
        }
    }

    private static BrokerTarget target(String topic, String brokerName, Master master, int queues) {
        List<MessageQueue> list = new ArrayList<>();
        for (int id = 0; id < queues; id++) {
            list.add(new MessageQueue(topic, brokerName, id));
        }
        return new BrokerTarget(master.cluster(), brokerName, master.address(), list);
    }

    @Override
    public void close() {
        admin.shutdown();
    }

    private record Master(String cluster, String address) {
    }
}

package io.lanemq.testkit;

import java.lang.reflect.Method;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.rocketmq.auth.config.AuthConfig;
import org.apache.rocketmq.common.BrokerConfig;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyServerConfig;
import org.apache.rocketmq.store.config.MessageStoreConfig;

/**
 * The broker settings the testkit writes for each broker child, and the check of user overrides.
 *
 * <p>Defaults aim at fast, small, test-friendly brokers: small mapped files so a test uses little disk, a 100 ms
 * timer wheel, and a transaction check-back within a few seconds. The transaction op batch interval must stay
 * below the check interval, or committed half messages are checked again and delivered twice (NOTES-rocketmq).
 */
final class BrokerProperties {

    /** Settings that identify or place a node: the testkit chooses them, an override would break the stack. */
    private static final Set<String> OWNED = Set.of(
        "brokerClusterName", "brokerName", "brokerId", "namesrvAddr", "listenPort", "haListenPort",
        "bindAddress", "brokerIP1", "brokerIP2", "storePathRootDir", "storePathCommitLog", "rocketmqHome", "haMasterAddress");

    private static final List<Class<?>> CONFIG_CLASSES = List.of(
        BrokerConfig.class, MessageStoreConfig.class, NettyServerConfig.class, NettyClientConfig.class, AuthConfig.class);

    private static final Map<String, String> DEFAULTS = defaults();

    private BrokerProperties() {
    }

    private static Map<String, String> defaults() {
        Map<String, String> d = new LinkedHashMap<>();
        d.put("brokerRole", "ASYNC_MASTER");
        d.put("flushDiskType", "ASYNC_FLUSH");
        d.put("autoCreateTopicEnable", "true");
        d.put("mappedFileSizeCommitLog", String.valueOf(64 << 20));
        d.put("mappedFileSizeConsumeQueue", String.valueOf(30_000 * 20)); // 30k entries of 20 bytes
        d.put("mappedFileSizeConsumeQueueExt", String.valueOf(4 << 20));
        d.put("mappedFileSizeTimerLog", String.valueOf(16 << 20));
        // The default index file (5M slots, 20M entries) is a 420 MB mapping; 4 MB is plenty for tests.
        d.put("maxHashSlotNum", "50000");
        d.put("maxIndexNum", "200000");
        d.put("timerWheelEnable", "true");
        d.put("timerPrecisionMs", "100");
        d.put("transactionCheckInterval", "1000");
        d.put("transactionTimeOut", "1000");
        d.put("transactionOpBatchInterval", "300");
        // A restarted name server learns about live brokers at their next registration: 10 s is the floor.
        d.put("registerNameServerPeriod", "10000");
        // Brokers, clients and builds share 2 cores here: a 200 ms wait in the send queue (the default)
        // is one GC pause away, and "broker busy" would then measure the machine, not the code.
        d.put("waitTimeMillsInSendQueue", "1000");
        return Map.copyOf(d);
    }

    /**
     * Every setting of one broker: testkit defaults, then the stack's {@link BrokerProfile}, then the user's
     * overrides, then the node's identity. The broker listens on {@code bindAddress} but always advertises
     * {@link ServerNode#HOST}: the two differ when a {@link LatencyProxy} listens on the advertised address.
     */
    static Properties forBroker(String clusterName, String brokerName, String nameServerAddress, String bindAddress,
                                int port, String storeDir, BrokerProfile profile, Map<String, String> overrides) {
        Properties p = new Properties();
        p.putAll(DEFAULTS);
        p.putAll(profile.properties());
        p.putAll(overrides);
        p.setProperty("brokerClusterName", clusterName);
        p.setProperty("brokerName", brokerName);
        p.setProperty("brokerId", "0");
        p.setProperty("namesrvAddr", nameServerAddress);
        p.setProperty("brokerIP1", ServerNode.HOST);
        p.setProperty("brokerIP2", ServerNode.HOST);
        p.setProperty("bindAddress", bindAddress);
        p.setProperty("listenPort", String.valueOf(port));
        p.setProperty("haListenPort", String.valueOf(port + 1));
        p.setProperty("storePathRootDir", storeDir);
        p.setProperty("storePathCommitLog", storeDir + "/commitlog");
        return p;
    }

    /**
     * Turns one broker's settings into those of a node of a master/slave pair ({@link IdcSpec.Builder#slaves}),
     * over the profile and the user's overrides. Checked against RocketMQ 5.3.3's source:
     * <ul>
     * <li>master: {@code SYNC_MASTER} with {@code inSyncReplicas=2} (the master counts as one). CommitLog.handleHA
     *     completes at once when fewer than two acks are asked, so a SYNC_MASTER left at the default 1 answers
     *     before the slave has the message, like an ASYNC_MASTER.</li>
     * <li>slave: brokerId 1, {@code SLAVE}, {@code slaveReadEnable=true}: PullMessageProcessor.rejectRequest
     *     refuses every pull on a slave without it, so consumers could not read the slave while the master is
     *     down. The slave learns its master's HA address (brokerIP2:haListenPort, listen port + 1) from the answer
     *     to its name server registration; one made before the master registered carries none, and the next comes
     *     10 s later ({@code registerNameServerPeriod}). {@code haMasterAddress} would name it at once, but 5.3.3
     *     drops it: BrokerController.initialize() hands it to the HA client before DefaultMessageStore.start()
     *     creates that client, and with the address set the registrations' answers are ignored, so the slave never
     *     connects (its store.log says "HAClient connect to master null failed" every 5 s). Hence it is owned.</li>
     * </ul>
     */
    static Properties asPairMember(Properties broker, BrokerNode.Role role) {
        Properties p = new Properties();
        p.putAll(broker);
        p.setProperty("brokerId", String.valueOf(role.brokerId()));
        if (role == BrokerNode.Role.MASTER) {
            p.setProperty("brokerRole", "SYNC_MASTER");
            p.setProperty("inSyncReplicas", "2");
        } else {
            p.setProperty("brokerRole", "SLAVE");
            p.setProperty("slaveReadEnable", "true");
        }
        return p;
    }

    /** Whether the testkit sets this property for each node (identity, addresses, ports, paths). */
    static boolean isOwned(String name) {
        return OWNED.contains(name);
    }

    /** Rejects a user override that RocketMQ would ignore silently or that the testkit owns. */
    static void checkOverride(String name, String value) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("broker property name must not be blank");
        }
        if (value == null) {
            throw new IllegalArgumentException("broker property " + name + " must have a value");
        }
        if (OWNED.contains(name)) {
            throw new IllegalArgumentException("broker property " + name + " is set by the testkit for each node");
        }
        String setter = "set" + Character.toUpperCase(name.charAt(0)) + name.substring(1);
        boolean known = false;
        for (Class<?> type : CONFIG_CLASSES) {
            for (Method m : type.getMethods()) {
                if (m.getName().equals(setter) && m.getParameterCount() == 1) {
                    known = true;
                    if (parses(m.getParameterTypes()[0], value.trim())) {
                        return;
                    }
                }
            }
        }
        throw new IllegalArgumentException(known
            ? "broker property " + name + " cannot take the value '" + value + "'"
            : "unknown broker property " + name + " (not a setting of BrokerConfig, MessageStoreConfig, "
                + "NettyServerConfig, NettyClientConfig or AuthConfig)");
    }

    // Mirrors the types RocketMQ's MixAll.properties2Object can convert; anything else it skips.
    private static boolean parses(Class<?> type, String value) {
        try {
            if (type == int.class || type == Integer.class) {
                Integer.parseInt(value);
            } else if (type == long.class || type == Long.class) {
                Long.parseLong(value);
            } else if (type == double.class || type == Double.class) {
                Double.parseDouble(value);
            } else if (type == float.class || type == Float.class) {
                Float.parseFloat(value);
            } else if (type == boolean.class || type == Boolean.class) {
                return value.equals("true") || value.equals("false");
            } else {
                return type == String.class;
            }
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}

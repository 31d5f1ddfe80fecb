package io.lanemq.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Properties;
import org.apache.rocketmq.common.BrokerConfig;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.store.config.BrokerRole;
import org.apache.rocketmq.store.config.MessageStoreConfig;
import org.junit.jupiter.api.Test;

/** The settings of a master/slave pair, read back the way the broker child reads them (MixAll.properties2Object). */
class BrokerPropertiesTest {

    private static final int MASTER_PORT = 20911;

    @Test
    void aPairedMasterWaitsForTheSlavesCopyBeforeItAnswers() {
        Properties settings = BrokerProperties.asPairMember(node(MASTER_PORT), BrokerNode.Role.MASTER);
        MessageStoreConfig store = store(settings);
        BrokerConfig broker = broker(settings);

        assertThat(broker.getBrokerId()).isEqualTo(MixAll.MASTER_ID);
        assertThat(store.getBrokerRole()).isEqualTo(BrokerRole.SYNC_MASTER);
        assertThat(store.getInSyncReplicas()).as("the master and its slave; 1 would answer without the slave")
            .isEqualTo(2);
        assertThat(store.getHaListenPort()).isEqualTo(MASTER_PORT + 1);
    }

    @Test
    void aSlaveHasTheMastersNameItsOwnPortsAndStoreAndServesReads() {
        int slavePort = 21911;
        Properties settings = BrokerProperties.asPairMember(node(slavePort), BrokerNode.Role.SLAVE);
        MessageStoreConfig store = store(settings);
        BrokerConfig broker = broker(settings);

        assertThat(broker.getBrokerName()).isEqualTo("idc-a-broker-0");
        assertThat(broker.getBrokerId()).isEqualTo(1);
        assertThat(store.getBrokerRole()).isEqualTo(BrokerRole.SLAVE);
        assertThat(broker.isSlaveReadEnable()).as("a slave refuses every pull without it").isTrue();
        assertThat(store.getHaMasterAddress()).as("5.3.3 drops a configured address: learnt from the name server")
            .isNull();
        assertThat(settings.getProperty("listenPort")).isEqualTo(String.valueOf(slavePort));
        assertThat(store.getStorePathRootDir()).isEqualTo("/tmp/store-" + slavePort);
    }

    @Test
    void pairSettingsWinOverTheUsersBrokerRoleAndTheMastersHaAddressCannotBeSet() {
        Properties asyncByUser = BrokerProperties.forBroker("cluster-a", "idc-a-broker-0", "127.0.0.1:9876",
            "127.0.0.1", MASTER_PORT, "/tmp/store", BrokerProfile.DEFAULT, Map.of("brokerRole", "ASYNC_MASTER"));

        assertThat(store(BrokerProperties.asPairMember(asyncByUser, BrokerNode.Role.MASTER))
            .getBrokerRole()).isEqualTo(BrokerRole.SYNC_MASTER);
        assertThatThrownBy(() -> BrokerProperties.checkOverride("haMasterAddress", "127.0.0.1:1"))
            .hasMessageContaining("set by the testkit");
    }

    private static Properties node(int port) {
        return BrokerProperties.forBroker("cluster-a", "idc-a-broker-0", "127.0.0.1:9876", "127.0.0.1", port,
            "/tmp/store-" + port, BrokerProfile.DEFAULT, Map.of());
    }

    private static MessageStoreConfig store(Properties settings) {
        MessageStoreConfig config = new MessageStoreConfig();
        MixAll.properties2Object(settings, config);
        return config;
    }

    private static BrokerConfig broker(Properties settings) {
        BrokerConfig config = new BrokerConfig();
        MixAll.properties2Object(settings, config);
        return config;
    }
}

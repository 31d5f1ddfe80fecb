package io.lanemq.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.Reader;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.rocketmq.common.BrokerConfig;
import org.apache.rocketmq.remoting.netty.NettyServerConfig;
import org.apache.rocketmq.store.config.MessageStoreConfig;
import org.junit.jupiter.api.Test;

class BrokerProfileTest {

    // The profile's one source is the deployed file.
    private static final Path DEPLOYED = RepoRoot.resolve("deploy", "broker", "broker.conf");

    @Test
    void tunedProfileIsTheDeployedFileLessTheTopologyALoopbackStackLacks() throws IOException {
        Properties deployed = new Properties();
        try (Reader in = Files.newBufferedReader(DEPLOYED)) {
            deployed.load(in);
        }
        Map<String, String> applied = BrokerProfile.TUNED.properties();
        Map<String, String> skipped = BrokerProfile.TUNED.skipped();

        assertThat(applied).as("settings applied to test brokers").isNotEmpty();
        assertThat(Stream.concat(applied.keySet().stream(), skipped.keySet().stream()))
            .as("every setting of %s is either applied or skipped with a reason", DEPLOYED)
            .containsExactlyInAnyOrderElementsOf(deployed.stringPropertyNames());
        applied.forEach((name, value) -> assertThat(value)
            .as("the jar's copy of %s has the deployed value of %s", DEPLOYED, name)
            .isEqualTo(deployed.getProperty(name).trim()));
        assertThat(skipped).as("the replication topology needs slaves the testkit does not start")
            .containsKeys("brokerRole", "inSyncReplicas");
        assertThat(skipped.values()).as("a reason for each skipped setting").allMatch(reason -> !reason.isBlank());
    }

    @Test
    void everyTunedSettingIsAFieldOfTheBrokersConfigClasses() {
        Set<String> fields = new HashSet<>();
        for (Class<?> type : List.of(BrokerConfig.class, MessageStoreConfig.class, NettyServerConfig.class)) {
            for (Class<?> c = type; c != Object.class; c = c.getSuperclass()) {
                for (Field field : c.getDeclaredFields()) {
                    fields.add(field.getName());
                }
            }
        }

        assertThat(BrokerProfile.TUNED.properties().keySet())
            .as("RocketMQ ignores an unknown key silently, so a typo would leave the default in place")
            .allMatch(fields::contains);
        assertThat(BrokerProfile.TUNED.skipped().keySet()).allMatch(fields::contains);
        assertThat(BrokerProfile.TUNED.properties().values())
            .as("java.util.Properties has no end-of-line comments: a '#' would become part of the value")
            .noneMatch(value -> value.contains("#"));
    }

    @Test
    void aSettingNoBrokerHasFailsTheProfileInsteadOfBeingIgnored() {
        Properties typo = new Properties();
        typo.setProperty("useEpollNativeSelecter", "true");
        Properties unparsable = new Properties();
        unparsable.setProperty("timerFlushIntervalMs", "10s");

        assertThatThrownBy(() -> BrokerProfile.parse("typo.conf", typo))
            .hasMessageContaining("typo.conf").hasMessageContaining("unknown broker property useEpollNativeSelecter");
        assertThatThrownBy(() -> BrokerProfile.parse("unparsable.conf", unparsable))
            .hasMessageContaining("timerFlushIntervalMs cannot take the value '10s'");
    }

    @Test
    void defaultProfileChangesNothing() {
        assertThat(BrokerProfile.DEFAULT.properties()).isEmpty();
        assertThat(BrokerProfile.DEFAULT.skipped()).isEmpty();
        assertThat(StackSpec.dualIdc().brokerProfile()).isEqualTo(BrokerProfile.DEFAULT);
    }

    @Test
    void profileWinsOverTestkitDefaultsAndAnExplicitPropertyWinsOverTheProfile() {
        StackSpec spec = StackSpec.builder().idc(IdcSpec.of("idc-a", "cluster-a"))
            .brokerProfile(BrokerProfile.TUNED)
            .brokerProperty("maxTransferCountOnMessageInMemory", "64")
            .build();

        Properties settings = BrokerProperties.forBroker("cluster-a", "idc-a-broker-0", "127.0.0.1:9876",
            "127.0.0.1", 10911, "/tmp/store", spec.brokerProfile(), spec.brokerProperties());

        assertThat(BrokerProfile.TUNED.properties()).containsEntry("maxTransferCountOnMessageInMemory", "256");
        assertThat(settings.getProperty("maxTransferCountOnMessageInMemory")).as("the explicit brokerProperty")
            .isEqualTo("64");
        assertThat(settings.getProperty("timerPrecisionMs"))
            .as("the profile's value over the testkit's 100 ms").isEqualTo("1000");
        assertThat(settings.getProperty("useEpollNativeSelector")).as("a profile setting").isEqualTo("true");
        assertThat(settings.getProperty("brokerRole")).as("skipped: the testkit's own").isEqualTo("ASYNC_MASTER");
        assertThat(settings.getProperty("listenPort")).as("the node's identity").isEqualTo("10911");
    }

    @Test
    void toBuilderKeepsTheProfile() {
        StackSpec spec = StackSpec.builder().idc(IdcSpec.of("idc-a", "cluster-a"))
            .brokerProfile(BrokerProfile.TUNED).build();

        assertThat(spec.toBuilder().build().brokerProfile()).isEqualTo(BrokerProfile.TUNED);
        assertThat(spec.toString()).contains("brokerProfile=TUNED");
    }
}

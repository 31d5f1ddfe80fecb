package io.lanemq.dialtest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DialTestOptionsTest {

    private static DialTestOptions.Builder valid() {
        return DialTestOptions.builder().nameServer("idc-a", "127.0.0.1:9876");
    }

    @Test
    void hasUsableDefaults() {
        DialTestOptions config = valid().build();
        assertThat(config.kinds()).containsExactlyInAnyOrderElementsOf(ProbeKind.brokerKinds());
        assertThat(config.samplingRatio()).isEqualTo(1.0);
        assertThat(config.ackListenAddress().getAddress().isLoopbackAddress()).isTrue();
        assertThat(config.ackSecret()).hasSizeGreaterThanOrEqualTo(16);
        assertThat(config.metricsAddress()).isNull();
    }

    @Test
    void namingADelayServerAddsItsKindUnlessTheKindsWereChosen() {
        DialTestOptions withServer = valid().delayServer("LANEMQ_DELAY", "dial-delayed").build();
        assertThat(withServer.kinds()).contains(ProbeKind.DELAY_SERVER).containsAll(ProbeKind.brokerKinds());
        assertThat(withServer.delayServer()).contains(new DialTestOptions.DelayServerTarget("LANEMQ_DELAY", "dial-delayed"));
        assertThat(withServer.toBuilder().build().kinds()).isEqualTo(withServer.kinds());
        assertThat(valid().kinds(Set.of(ProbeKind.NORMAL)).delayServer("LANEMQ_DELAY", "dial-delayed").build().kinds())
            .containsExactly(ProbeKind.NORMAL);
        assertThatThrownBy(() -> valid().kinds(Set.of(ProbeKind.DELAY_SERVER)).build())
            .hasMessageContaining("the delay_server kind needs a delay server to probe");
        assertThatThrownBy(() -> valid().delayServer("bad topic", "x")).hasMessageStartingWith("delayServerTopic");
        assertThat(ProbeKind.parse("delay_server")).isEqualTo(ProbeKind.DELAY_SERVER);
        assertThat(ProbeKind.ofCode(ProbeKind.DELAY_SERVER.code())).isEqualTo(ProbeKind.DELAY_SERVER);
    }

    @Test
    void namingALogicTopicAddsItsKindUnlessTheKindsWereChosen() {
        DialTestOptions withTopic = valid().logicTopic("file:/etc/lanemq/platform.yaml", "dial-logic", "dial-group").build();
        assertThat(withTopic.kinds()).contains(ProbeKind.LOGIC_TOPIC);
        assertThat(withTopic.logicTopic()).contains(
            new DialTestOptions.LogicTopicTarget("file:/etc/lanemq/platform.yaml", "dial-logic", "dial-group"));
        assertThat(valid().kinds(Set.of(ProbeKind.NORMAL)).logicTopic("file:/x", "t", "g").build().kinds())
            .containsExactly(ProbeKind.NORMAL);
        assertThatThrownBy(() -> valid().kinds(Set.of(ProbeKind.LOGIC_TOPIC)).build())
            .hasMessageContaining("logic_topic kind needs a logic topic");
        assertThatThrownBy(() -> valid().logicTopic(" ", "t", "g")).hasMessageStartingWith("logicTopicConfig");
        assertThatThrownBy(() -> valid().logicTopic("file:/x", "bad topic", "g")).hasMessageStartingWith("logicTopic ");
        assertThatThrownBy(() -> valid().logicTopic("file:/x", "t", "bad group")).hasMessageStartingWith("logicTopicGroup");
    }

    @Test
    void aConfigurationProbeKeyAddsItsKindAndNeedsTheLogicTopicClient() {
        assertThat(valid().logicTopic("file:/x", "t", "g").configProbeKey("probe-key").build().kinds())
            .contains(ProbeKind.LOGIC_TOPIC, ProbeKind.CONFIG_PROPAGATION);
        assertThatThrownBy(() -> valid().configProbeKey("probe-key").build())
            .hasMessageContaining("config_propagation kind needs a probe key and the logic-topic client");
        assertThatThrownBy(() -> valid().configProbeKey("bad key")).hasMessageStartingWith("configProbeKey");
    }

    @Test
    void everySettingIsCheckedWithItsNameInTheMessage() {
        assertThatThrownBy(() -> valid().ratePerSecond(0)).hasMessageStartingWith("ratePerSecond");
        assertThatThrownBy(() -> valid().bodySize(10)).hasMessageStartingWith("bodySize");
        assertThatThrownBy(() -> valid().samplingRatio(0)).hasMessageStartingWith("samplingRatio");
        assertThatThrownBy(() -> valid().samplingRatio(1.5)).hasMessageStartingWith("samplingRatio");
        assertThatThrownBy(() -> valid().period(Duration.ofMillis(1))).hasMessageStartingWith("period");
        assertThatThrownBy(() -> valid().grace(Duration.ZERO)).hasMessageStartingWith("grace");
        assertThatThrownBy(() -> valid().delay(Duration.ofDays(2))).hasMessageStartingWith("delay");
        assertThatThrownBy(() -> valid().checkBackAllowance(Duration.ofSeconds(-1)))
            .hasMessageStartingWith("checkBackAllowance");
        assertThatThrownBy(() -> valid().ackSecret(new byte[3])).hasMessageStartingWith("ackSecret");
        assertThatThrownBy(() -> valid().probeTopic("no spaces")).hasMessageStartingWith("probeTopic");
        assertThatThrownBy(() -> valid().queuesPerBroker(0)).hasMessageStartingWith("queuesPerBroker");
        assertThatThrownBy(() -> valid().consumerGroup("")).hasMessageStartingWith("consumerGroup");
        assertThatThrownBy(() -> valid().kinds(Set.of())).hasMessageStartingWith("kinds");
        assertThatThrownBy(() -> valid().nameServer("idc-b", "no-port")).hasMessageStartingWith("nameServers");
        assertThatThrownBy(() -> valid().nameServer("idc-a", "127.0.0.1:1")).hasMessageContaining("given twice");
        assertThatThrownBy(() -> DialTestOptions.builder().build()).hasMessageStartingWith("nameServers");
        assertThatThrownBy(() -> valid().grace(Duration.ofMinutes(5)).retention(Duration.ofMinutes(1)).build())
            .hasMessageStartingWith("retention");
    }

    @Test
    void theAckListenerNeverListensOnAWildcardAddress() {
        assertThatThrownBy(() -> valid().ackListenAddress(new InetSocketAddress("0.0.0.0", 0)))
            .hasMessageStartingWith("ackListenAddress").hasMessageContaining("wildcard");
    }

    @Test
    void toBuilderKeepsEverySettingIncludingTheSecret() {
        DialTestOptions config = valid().ratePerSecond(3).bodySize(100).samplingRatio(0.5).build();
        DialTestOptions copy = config.toBuilder().build();
        assertThat(copy.toString()).isEqualTo(config.toString());
        assertThat(copy.ackSecret()).isEqualTo(config.ackSecret());
    }
}

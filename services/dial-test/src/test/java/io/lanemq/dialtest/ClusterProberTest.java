package io.lanemq.dialtest;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.remoting.exception.RemotingConnectException;
import org.apache.rocketmq.remoting.exception.RemotingSendRequestException;
import org.apache.rocketmq.remoting.exception.RemotingTimeoutException;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.junit.jupiter.api.Test;

class ClusterProberTest {

    @Test
    void onlyAnErrorCodeFromTheBrokerCountsAsAnAnswer() {
        assertThat(ClusterProber.brokerAnswered(new MQBrokerException(ResponseCode.SYSTEM_BUSY, "busy", "127.0.0.1:1")))
            .isTrue();
        assertThat(ClusterProber.brokerAnswered(new MQClientException("wrapped",
            new MQBrokerException(ResponseCode.SYSTEM_BUSY, "busy")))).isTrue();

        assertThat(ClusterProber.brokerAnswered(new MQClientException("wait response timeout",
            new RemotingTimeoutException("127.0.0.1:1", 3000)))).isFalse();
        assertThat(ClusterProber.brokerAnswered(new MQClientException("send request failed",
            new RemotingSendRequestException("127.0.0.1:1")))).isFalse();
        assertThat(ClusterProber.brokerAnswered(new RemotingConnectException("127.0.0.1:1"))).isFalse();
    }
}

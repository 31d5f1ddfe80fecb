package io.lanemq.rocketmq;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.api.InvalidMessageException;
import io.lanemq.api.MessagingException;
import io.lanemq.api.SendFailedException;
import org.apache.rocketmq.client.common.ClientErrorCode;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.remoting.exception.RemotingConnectException;
import org.apache.rocketmq.remoting.exception.RemotingTimeoutException;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.junit.jupiter.api.Test;

class RocketMqErrorsTest {

    @Test
    void bodyTooLargeFromTheClientValidatorIsAnInvalidMessage() {
        MessagingException mapped = RocketMqErrors.sendFailed(new MQClientException(ResponseCode.MESSAGE_ILLEGAL,
                "the message body size over max value, MAX: 4194304"), "idc-a", "orders_a");

        assertThat(mapped).isInstanceOf(InvalidMessageException.class)
                .hasMessageContaining("body size over max value")
                .hasMessageContaining("orders_a")
                .hasMessageContaining("idc-a");
    }

    @Test
    void aBrokerRefusalOfTheContentIsAnInvalidMessageEvenWhenWrapped() {
        // sendMessageInTransaction wraps every failure like this.
        Exception wrapped = new MQClientException("send message Exception",
                new MQBrokerException(ResponseCode.MESSAGE_ILLEGAL, "msg size too large", "127.0.0.1:10911"));
        assertThat(RocketMqErrors.sendFailed(wrapped, "idc-a", "orders_a"))
                .isInstanceOf(InvalidMessageException.class)
                .hasMessageContaining("msg size too large");
    }

    @Test
    void brokerAndNetworkFailuresAreSendFailuresWithTheClusterInContext() {
        MessagingException noTopic = RocketMqErrors.sendFailed(
                new MQBrokerException(ResponseCode.TOPIC_NOT_EXIST, "topic[orders_a] not exist", "127.0.0.1:10911"),
                "idc-a", "orders_a");
        assertThat(noTopic).isInstanceOf(SendFailedException.class)
                .hasMessageContaining("send to topic orders_a failed")
                .hasMessageContaining("code 17")
                .hasMessageEndingWith("[cluster=idc-a]");
        assertThat(noTopic.cluster()).isEqualTo("idc-a");
        assertThat(noTopic.logicTopic()).isNull();
        assertThat(noTopic.getCause()).isInstanceOf(MQBrokerException.class);

        assertThat(RocketMqErrors.sendFailed(new RemotingTimeoutException("wait response timeout 3000ms"), "idc-b", "t"))
                .isInstanceOf(SendFailedException.class)
                .hasMessageContaining("RemotingTimeoutException")
                .hasMessageContaining("[cluster=idc-b]");
        assertThat(RocketMqErrors.sendFailed(new MQClientException(ClientErrorCode.NOT_FOUND_TOPIC_EXCEPTION,
                "No route info of this topic: t"), "idc-b", "t"))
                .isInstanceOf(SendFailedException.class)
                .hasMessageContaining("No route info");
        assertThat(RocketMqErrors.sendFailed(new MQClientException("Send [2] times, still failed",
                new RemotingConnectException("127.0.0.1:10911")), "idc-b", "t"))
                .isInstanceOf(SendFailedException.class)
                .hasMessageContaining("Send [2] times")
                .hasMessageContaining("RemotingConnectException");
    }

    @Test
    void rocketMqsFaqLinkIsLeftOutOfTheMessage() {
        MQClientException error = new MQClientException(ClientErrorCode.NOT_FOUND_TOPIC_EXCEPTION, "No route info");
        assertThat(error.getMessage()).contains("\n");
        assertThat(RocketMqErrors.sendFailed(error, "idc-a", "t").getMessage()).doesNotContain("\n");
    }

    @Test
    void interruptionRestoresTheInterruptFlag() {
        try {
            MessagingException mapped = RocketMqErrors.sendFailed(new InterruptedException(), "idc-a", "orders_a");
            assertThat(mapped).isInstanceOf(SendFailedException.class).hasMessageContaining("interrupted");
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void anAlreadyMappedExceptionPassesThrough() {
        InvalidMessageException invalid = new InvalidMessageException("bad", null);
        assertThat(RocketMqErrors.sendFailed(invalid, "idc-a", "t")).isSameAs(invalid);
    }

    @Test
    void startFailuresNameWhatAndWhere() {
        MessagingException mapped = RocketMqErrors.startFailed(new MQClientException(-1, "producerGroup can not equal DEFAULT_PRODUCER"),
                "producer group 'DEFAULT_PRODUCER'", "idc-a");
        assertThat(mapped).hasMessageContaining("cannot start RocketMQ producer group 'DEFAULT_PRODUCER'")
                .hasMessageContaining("can not equal")
                .hasMessageEndingWith("[cluster=idc-a]");
    }
}

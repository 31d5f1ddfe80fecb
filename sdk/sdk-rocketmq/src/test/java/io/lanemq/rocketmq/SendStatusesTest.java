package io.lanemq.rocketmq;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class SendStatusesTest {

    private static SendResult answered(SendStatus status) {
        return new SendResult(status, "7F0000010001", "OFFSETID", new MessageQueue("internal", "broker-a", 1), 42L);
    }

    @Test
    void onlySendOkCountsAsStoredAsConfigured() {
        assertThat(SendStatuses.storedAsConfigured(answered(SendStatus.SEND_OK))).isTrue();
    }

    @ParameterizedTest
    @EnumSource(value = SendStatus.class, names = "SEND_OK", mode = EnumSource.Mode.EXCLUDE)
    void aStatusBelowTheConfiguredDurabilityIsNotYetStored(SendStatus status) {
        assertThat(SendStatuses.storedAsConfigured(answered(status))).as("%s", status).isFalse();
    }

    @ParameterizedTest
    @EnumSource(value = SendStatus.class, names = "SEND_OK", mode = EnumSource.Mode.EXCLUDE)
    void theRawProducerCompletesANonOkSendWithFalseNotWithAFailure(SendStatus status) {
        CompletableFuture<Boolean> sent = new CompletableFuture<>();
        RawProducer.completing(sent).onSuccess(answered(status));
        // False: stored, so not a failure a caller would drop; not durable, so the caller keeps what it holds.
        assertThat(sent).as("%s", status).isCompletedWithValue(false);
    }

    @Test
    void theRawProducerCompletesSendOkWithTrue() {
        CompletableFuture<Boolean> sent = new CompletableFuture<>();
        RawProducer.completing(sent).onSuccess(answered(SendStatus.SEND_OK));
        assertThat(sent).isCompletedWithValue(true);
    }
}

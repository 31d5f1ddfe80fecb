package io.lanemq.rocketmq;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.api.TransactionResolution;
import io.lanemq.api.spi.BoundLocalTransaction;
import io.lanemq.api.spi.BoundMessage;
import io.lanemq.api.spi.BoundSendResult;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageClientIDSetter;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Test;

class TransactionBridgeTest {

    @Test
    void mapsEveryResolution() {
        assertThat(TransactionBridge.toState(TransactionResolution.COMMIT)).isEqualTo(LocalTransactionState.COMMIT_MESSAGE);
        assertThat(TransactionBridge.toState(TransactionResolution.ROLLBACK)).isEqualTo(LocalTransactionState.ROLLBACK_MESSAGE);
        assertThat(TransactionBridge.toState(TransactionResolution.UNKNOWN)).isEqualTo(LocalTransactionState.UNKNOW);
        assertThat(TransactionBridge.toState(null)).isEqualTo(LocalTransactionState.UNKNOW);
    }

    @Test
    void runsTheLocalTransactionPassedAsArgumentWithThePreparedMessageId() {
        TransactionBridge bridge = new TransactionBridge(prepared -> TransactionResolution.UNKNOWN, "idc-a", "orders-producer");
        Message prepared = new Message("orders_a", new byte[] {1});
        MessageClientIDSetter.setUniqID(prepared);
        AtomicReference<BoundSendResult> seen = new AtomicReference<>();
        BoundLocalTransaction transaction = result -> {
            seen.set(result);
            return TransactionResolution.COMMIT;
        };

        assertThat(bridge.executeLocalTransaction(prepared, transaction)).isEqualTo(LocalTransactionState.COMMIT_MESSAGE);
        assertThat(seen.get()).isEqualTo(new BoundSendResult(MessageClientIDSetter.getUniqID(prepared), "orders_a", null, -1, -1));
    }

    @Test
    void aFailingLocalTransactionIsUnknown() {
        TransactionBridge bridge = new TransactionBridge(prepared -> TransactionResolution.COMMIT, "idc-a", "orders-producer");
        BoundLocalTransaction failing = result -> {
            throw new IllegalStateException("database down");
        };
        assertThat(bridge.executeLocalTransaction(new Message("orders_a", new byte[] {1}), failing))
                .isEqualTo(LocalTransactionState.UNKNOW);
    }

    @Test
    void checkBacksGoToTheHandlerWithTheMessage() {
        AtomicReference<BoundMessage> seen = new AtomicReference<>();
        TransactionBridge bridge = new TransactionBridge(prepared -> {
            seen.set(prepared);
            return TransactionResolution.ROLLBACK;
        }, "idc-a", "orders-producer");
        MessageExt prepared = new MessageExt();
        prepared.setTopic("orders_a");
        prepared.setBody(new byte[] {1});
        MessageClientIDSetter.setUniqID(prepared);
        MessageAccessor.putProperty(prepared, "orderId", "42");
        MessageAccessor.putProperty(prepared, "TRAN_MSG", "true");

        assertThat(bridge.checkLocalTransaction(prepared)).isEqualTo(LocalTransactionState.ROLLBACK_MESSAGE);
        assertThat(seen.get().messageId()).isEqualTo(MessageClientIDSetter.getUniqID(prepared));
        assertThat(seen.get().topic()).isEqualTo("orders_a");
        assertThat(seen.get().properties()).containsOnlyKeys("orderId");
    }

    @Test
    void aFailingCheckIsUnknown() {
        TransactionBridge bridge = new TransactionBridge(prepared -> {
            throw new IllegalStateException("database down");
        }, "idc-a", "orders-producer");
        MessageExt prepared = new MessageExt();
        prepared.setTopic("orders_a");
        prepared.setBody(new byte[] {1});
        assertThat(bridge.checkLocalTransaction(prepared)).isEqualTo(LocalTransactionState.UNKNOW);
    }
}

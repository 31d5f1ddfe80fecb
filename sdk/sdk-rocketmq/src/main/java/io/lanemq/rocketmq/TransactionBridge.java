package io.lanemq.rocketmq;

import io.lanemq.api.TransactionResolution;
import io.lanemq.api.spi.BoundLocalTransaction;
import io.lanemq.api.spi.TransactionCheckHandler;
import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.producer.TransactionListener;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Connects RocketMQ's per-producer {@link TransactionListener} to the SPI. RocketMQ allows one
 * listener per producer, so the local transaction of each send travels as the {@code arg} of
 * {@code sendMessageInTransaction}; check-backs go to the spec's {@link TransactionCheckHandler}.
 * An exception or a null answer is UNKNOWN: the broker asks again later, so nothing is lost.
 */
final class TransactionBridge implements TransactionListener {
    private static final Logger LOG = LoggerFactory.getLogger(TransactionBridge.class);

    private final TransactionCheckHandler checkHandler;
    private final String context;

    TransactionBridge(TransactionCheckHandler checkHandler, String cluster, String producerGroup) {
        this.checkHandler = checkHandler;
        this.context = "[cluster=" + cluster + ", producerGroup=" + producerGroup + "]";
    }

    @Override
    public LocalTransactionState executeLocalTransaction(Message prepared, Object transaction) {
        try {
            return toState(((BoundLocalTransaction) transaction).execute(MessageMapping.preparedResult(prepared)));
        } catch (RuntimeException e) {
            LOG.warn("local transaction for prepared message {} of topic {} failed; the broker will check it back {}",
                    prepared.getTransactionId(), prepared.getTopic(), context, e);
            return LocalTransactionState.UNKNOW;
        }
    }

    @Override
    public LocalTransactionState checkLocalTransaction(MessageExt prepared) {
        try {
            return toState(checkHandler.check(MessageMapping.toBoundMessage(prepared)));
        } catch (RuntimeException e) {
            LOG.warn("transaction check for prepared message {} of topic {} failed; the broker will ask again {}",
                    prepared.getTransactionId(), prepared.getTopic(), context, e);
            return LocalTransactionState.UNKNOW;
        }
    }

    static LocalTransactionState toState(TransactionResolution resolution) {
        if (resolution == null) {
            return LocalTransactionState.UNKNOW;
        }
        return switch (resolution) {
            case COMMIT -> LocalTransactionState.COMMIT_MESSAGE;
            case ROLLBACK -> LocalTransactionState.ROLLBACK_MESSAGE;
            case UNKNOWN -> LocalTransactionState.UNKNOW;
        };
    }
}

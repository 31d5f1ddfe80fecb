package io.lanemq.dialtest;

import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Transactional probes to an explicit queue. {@code TransactionMQProducer.sendMessageInTransaction} picks the
 * queue itself, so this does what it does, on the queue we choose: a half message (the {@code TRAN_MSG} and
 * {@code PGROUP} properties) sent to the queue, then the local transaction's outcome to the broker through
 * {@code endTransaction}. Every other probe of a lane commits at once; the rest answer UNKNOWN, so the broker
 * checks back, and {@link ProbeTransactionListener} commits then. Both halves must arrive.
 */
final class TransactionalProbeSender implements ProbeSender {

    private static final Logger LOG = LoggerFactory.getLogger(TransactionalProbeSender.class);

    private final TransactionMQProducer producer;
    private final long timeoutMillis;
    private final long checkBackAllowanceNanos;

    TransactionalProbeSender(TransactionMQProducer producer, long timeoutMillis, long checkBackAllowanceNanos) {
        this.producer = producer;
        this.timeoutMillis = timeoutMillis;
        this.checkBackAllowanceNanos = checkBackAllowanceNanos;
    }

    @Override
    public ProbeKind kind() {
        return ProbeKind.TRANSACTIONAL;
    }

    @Override
    public long delayMillis() {
        return 0;
    }

    @Override
    public long allowanceNanos(long laneSequence) {
        return resolvedByCheckBack(laneSequence) ? checkBackAllowanceNanos : 0;
    }

    static boolean resolvedByCheckBack(long laneSequence) {
        return (laneSequence & 1) == 1;
    }

    @Override
    public void send(Message message, MessageQueue queue, long laneSequence, SendCallback callback) throws Exception {
        MessageAccessor.putProperty(message, MessageConst.PROPERTY_TRANSACTION_PREPARED, "true");
        MessageAccessor.putProperty(message, MessageConst.PROPERTY_PRODUCER_GROUP, producer.getProducerGroup());
        LocalTransactionState local = resolvedByCheckBack(laneSequence)
            ? LocalTransactionState.UNKNOW : LocalTransactionState.COMMIT_MESSAGE;
        producer.send(message, queue, new SendCallback() {
            @Override
            public void onSuccess(SendResult result) {
                if (result.getSendStatus() == SendStatus.SEND_OK) {
                    end(message, result, local);
                }
                callback.onSuccess(result);
            }

            @Override
            public void onException(Throwable e) {
                callback.onException(e);
            }
        }, timeoutMillis);
    }

    // As sendMessageInTransaction does after the local transaction. If this fails the broker checks back, and
    // the probe still arrives, later: the report shows it as latency, not as loss.
    private void end(Message message, SendResult result, LocalTransactionState local) {
        try {
            if (result.getTransactionId() != null) {
                message.putUserProperty("__transactionId__", result.getTransactionId());
            }
            String uniqueKey = message.getProperty(MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX);
            if (uniqueKey != null && !uniqueKey.isEmpty()) {
                message.setTransactionId(uniqueKey);
            }
            producer.getDefaultMQProducerImpl().endTransaction(message, result, local, null);
        } catch (Exception e) {
            LOG.debug("endTransaction({}) of probe {} failed; the broker will check back", local, result.getMsgId(), e);
        }
    }
}

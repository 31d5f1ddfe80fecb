package io.lanemq.dialtest;

import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.producer.TransactionListener;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;

/**
 * Answers the broker's check-back for transactional probes: commit probes of this run, roll back anything else
 * (a probe of an earlier run is of no use to anyone now). The local transaction itself is decided by
 * {@link TransactionalProbeSender}, so {@link #executeLocalTransaction} is never reached.
 */
final class ProbeTransactionListener implements TransactionListener {

    private final long runId;

    ProbeTransactionListener(long runId) {
        this.runId = runId;
    }

    @Override
    public LocalTransactionState executeLocalTransaction(Message message, Object arg) {
        return LocalTransactionState.UNKNOW;
    }

    @Override
    public LocalTransactionState checkLocalTransaction(MessageExt message) {
        try {
            return ProbeBody.decode(message.getBody()).runId() == runId
                ? LocalTransactionState.COMMIT_MESSAGE : LocalTransactionState.ROLLBACK_MESSAGE;
        } catch (IllegalArgumentException e) {
            return LocalTransactionState.ROLLBACK_MESSAGE;
        }
    }
}

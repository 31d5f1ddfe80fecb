package io.lanemq.delay;

/**
 * Receives each stored id with its state, from {@link DelayEngine#forEachRecord}. Primitive
 * arguments: a store of millions of records is walked without an object per record.
 */
@FunctionalInterface
public interface RecordStateVisitor {

    void visit(long dueAtMillis, long nonce, RecordState state);
}

package io.lanemq.failover;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/** The only per-pick allocation; the flag makes completion idempotent across threads. */
final class CalleeLease<T> implements Lease<T> {

    private static final VarHandle DONE;

    static {
        try {
            DONE = MethodHandles.lookup().findVarHandle(CalleeLease.class, "done", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final WeightedFailover<T> owner;
    private final Callee<T> callee;
    private volatile boolean done;

    CalleeLease(WeightedFailover<T> owner, Callee<T> callee) {
        this.owner = owner;
        this.callee = callee;
    }

    @Override
    public T callee() {
        return callee.value;
    }

    @Override
    public void onSuccessNanos(long latencyNanos) {
        if (complete()) {
            owner.succeeded(callee, latencyNanos);
        }
    }

    @Override
    public void onFailure() {
        if (complete()) {
            owner.failed(callee);
        }
    }

    @Override
    public void onIgnore() {
        if (complete()) {
            callee.release();
        }
    }

    private boolean complete() {
        return !done && DONE.compareAndSet(this, false, true);
    }

    @Override
    public String toString() {
        return "Lease[" + callee.value + (done ? ", done]" : "]");
    }
}

package io.lanemq.dialtest;

import io.lanemq.testkit.StackSpec;

/**
 * The broker settings of the stacks the dial test starts itself (the embedded default, and its integration tests).
 *
 * <p>A less hasty transaction check than the testkit's: at its 1 s timeout and 1 s check interval the broker checks
 * back some transactions already committed (at once, or by an earlier check) and delivers them twice, which the
 * dial test would report as duplicates of the broker. 5 s, for a check-back after 5-7 s, leaves room for the
 * multi-second stalls of an overloaded machine. A send may also wait 3 s (not 1 s) in the broker's queue before
 * "broker busy", so a stall of a shared small machine is not reported as a send failure of the broker.
 */
public final class EmbeddedStack {

    private EmbeddedStack() {
    }

    /** {@code spec} with the dial test's broker settings. */
    public static StackSpec.Builder brokers(StackSpec.Builder spec) {
        return spec.brokerProperty("transactionTimeOut", "5000").brokerProperty("transactionCheckInterval", "2000")
            .brokerProperty("waitTimeMillsInSendQueue", "3000");
    }

    /** The embedded default: the testkit's two IDCs, one broker each, with the settings above. */
    public static StackSpec dualIdc() {
        return brokers(StackSpec.dualIdc().toBuilder()).build();
    }
}

package io.lanemq.configtool;

import io.lanemq.config.store.PendingCanary;

/** How the commands name a pending canary. */
final class Canaries {
    private Canaries() {
    }

    /** {@code a canary to 10% of every application is pending in /k.canary at revision 12 (over revision 11)} */
    static String describe(PendingCanary pending, String key) {
        return "a canary to " + pending.canary().target().describe() + " is pending in " + key + ".canary at revision "
                + pending.revision() + " (over revision " + pending.canary().base() + ")";
    }
}

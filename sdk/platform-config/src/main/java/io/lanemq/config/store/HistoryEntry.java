package io.lanemq.config.store;

import java.time.Instant;

/**
 * One published revision of the platform configuration, as the console and the config tool keep it beside the
 * configuration key.
 *
 * @param revision     the etcd revision that wrote the configuration (and this entry, in the same transaction)
 * @param author       the user who published it (the console's login, the config tool's --author)
 * @param comment      why, as the author wrote it (required)
 * @param change       what the action was ({@code drain idc-b}, {@code roll back to revision 12}, {@code publish platform.yaml})
 * @param diff         the document's line diff against the revision it replaced
 * @param yaml         the document published
 * @param previousYaml the document it replaced (empty when there was none): what an undo restores from
 * @param kind         what the step did; for a {@link Kind#CANARY} {@code yaml} is the candidate, for an
 *                     {@link Kind#ABANDON} the configuration the canary clients returned to (and {@code previousYaml}
 *                     the candidate they left)
 */
public record HistoryEntry(long revision, String author, Instant at, String comment, String change, String diff,
                           String yaml, String previousYaml, Kind kind) {
    /** What a history step did. */
    public enum Kind {
        /** A configuration written for everyone (a publish, an edit, a rollback). */
        PUBLISH,
        /** A candidate published to a canary subset; the configuration is unchanged. */
        CANARY,
        /** A canary's candidate written as the configuration for everyone. */
        PROMOTE,
        /** A canary withdrawn; its clients returned to the configuration. */
        ABANDON
    }

    /** A configuration written for everyone. */
    public HistoryEntry(long revision, String author, Instant at, String comment, String change, String diff,
                        String yaml, String previousYaml) {
        this(revision, author, at, comment, change, diff, yaml, previousYaml, Kind.PUBLISH);
    }

    /**
     * Whether {@code yaml} was ever the configuration every client ran, so a rollback may restore it: false for a
     * canary's candidate, which only its subset ran.
     */
    public boolean ranEverywhere() {
        return kind != Kind.CANARY;
    }
}

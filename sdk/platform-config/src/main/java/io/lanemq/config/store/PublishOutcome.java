package io.lanemq.config.store;

/**
 * What a publish did.
 *
 * @param written       false when the configuration had changed since the editor's revision, or a canary is pending:
 *                      nothing was written
 * @param revision      the new revision when written, else the revision the configuration is at now
 * @param canaryPending a canary was pending (or appeared): a publish for everyone waits until it is promoted or abandoned
 */
public record PublishOutcome(boolean written, long revision, boolean canaryPending) {
    public PublishOutcome(boolean written, long revision) {
        this(written, revision, false);
    }
}

package io.lanemq.config.store;

/**
 * What a publish did.
 *
 * @param written  false when the configuration had changed since the editor's revision: nothing was written
 * @param revision the new revision when written, else the revision the configuration is at now
 */
public record PublishOutcome(boolean written, long revision) {
}

package io.lanemq.console.change;

import io.lanemq.config.InvalidPlatformConfigException;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.store.DocumentText;

/**
 * One action of the console on the platform configuration, applied to the snapshot the editor started from.
 * Each is one click (or one form) on a page; {@link ConfigEditor} previews, authorises and publishes it.
 */
public sealed interface Change permits DrainIdc, RestoreWeights, SetWeights, SetMode, SetRateLimit, PutTopic, Rollback {
    /** One line for the preview and the history: {@code drain idc-b}. */
    String describe();

    /** What it touches, for the ownership check. */
    Scope scope();

    /**
     * The document with this change made in place: only the values it changes differ, every other byte stays
     * (comments, order, style, environments, defaults left unset). Not yet validated as a whole.
     *
     * @param document the published document
     * @param current  the same document as the default environment reads it
     * @throws InvalidPlatformConfigException when the action itself cannot apply (naming the key, as the validator does)
     */
    DocumentText applyTo(DocumentText document, PlatformConfig current) throws InvalidPlatformConfigException;

    /**
     * @param operatorOnly an operation on the whole platform (IDC drain, undo, rollback)
     * @param topic        the logic topic changed, or null
     * @param group        the consumer group changed, or null
     */
    record Scope(boolean operatorOnly, String topic, String group) {
        public static Scope operator() {
            return new Scope(true, null, null);
        }

        public static Scope topic(String topic) {
            return new Scope(false, topic, null);
        }

        public static Scope group(String topic, String group) {
            return new Scope(false, topic, group);
        }
    }
}

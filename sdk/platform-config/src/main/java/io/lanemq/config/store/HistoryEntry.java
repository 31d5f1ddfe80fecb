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
 */
public record HistoryEntry(long revision, String author, Instant at, String comment, String change, String diff,
                           String yaml, String previousYaml) {
}

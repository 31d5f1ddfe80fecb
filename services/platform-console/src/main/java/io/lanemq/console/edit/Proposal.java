package io.lanemq.console.edit;

import io.lanemq.console.change.Change;

/**
 * A change applied to the revision its author started from, validated, waiting for the author's comment and publish.
 * Kept in the author's session only: what is published is exactly what was previewed.
 *
 * @param baseYaml the document at {@code baseRevision}
 * @param yaml     the document that publishing writes
 */
public record Proposal(String id, String author, Change change, long baseRevision, String baseYaml, String yaml, String diff) {
    public String description() {
        return change.describe();
    }
}

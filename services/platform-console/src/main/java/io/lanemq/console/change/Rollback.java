package io.lanemq.console.change;

import io.lanemq.config.PlatformConfig;
import io.lanemq.config.store.DocumentText;

/**
 * Publishes an earlier revision's whole document again, exactly as it was written (comments and all), as a new
 * revision: history is never rewritten.
 *
 * @param yaml the revision's document text
 */
public record Rollback(long revision, String yaml) implements Change {
    @Override
    public String describe() {
        return "roll back to revision " + revision;
    }

    @Override
    public Scope scope() {
        return Scope.operator();
    }

    @Override
    public DocumentText applyTo(DocumentText document, PlatformConfig current) {
        return DocumentText.of(yaml);
    }
}

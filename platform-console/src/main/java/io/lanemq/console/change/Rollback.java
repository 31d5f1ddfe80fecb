package io.lanemq.console.change;

import io.lanemq.config.PlatformConfig;

/** Publishes an earlier revision's whole document again, as a new revision (history is never rewritten). */
public record Rollback(long revision, PlatformConfig target) implements Change {
    @Override
    public String describe() {
        return "roll back to revision " + revision;
    }

    @Override
    public Scope scope() {
        return Scope.operator();
    }

    @Override
    public PlatformConfig.Builder applyTo(PlatformConfig current) {
        return Configs.toBuilder(target);
    }
}

package io.lanemq.console.edit;

import io.lanemq.config.store.HistoryEntry;
import java.util.List;

/**
 * The configuration changed after the editor's revision: nothing was written. Carries what came in between, so the
 * page can show it; entries are missing for changes made outside the console.
 */
public class ConflictException extends Exception {
    private static final long serialVersionUID = 1L;
    private final long baseRevision;
    private final long currentRevision;
    private final transient List<HistoryEntry> since;

    public ConflictException(long baseRevision, long currentRevision, List<HistoryEntry> since) {
        super("the configuration changed since revision " + baseRevision + ": it is at revision " + currentRevision);
        this.baseRevision = baseRevision;
        this.currentRevision = currentRevision;
        this.since = List.copyOf(since);
    }

    public long baseRevision() {
        return baseRevision;
    }

    public long currentRevision() {
        return currentRevision;
    }

    public List<HistoryEntry> since() {
        return since;
    }
}

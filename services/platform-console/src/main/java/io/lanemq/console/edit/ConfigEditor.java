package io.lanemq.console.edit;

import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.config.ConfigProblem;
import io.lanemq.config.InvalidPlatformConfigException;
import io.lanemq.config.etcd.EtcdException;
import io.lanemq.config.store.ConfigStore;
import io.lanemq.config.store.HistoryEntry;
import io.lanemq.config.store.PublishOutcome;
import io.lanemq.config.store.PublishGuard;
import io.lanemq.config.store.Published;
import io.lanemq.config.store.YamlDiff;
import io.lanemq.console.access.Ownership;
import io.lanemq.console.change.Change;
import io.lanemq.console.change.Configs;
import io.lanemq.console.change.DrainIdc;
import io.lanemq.console.change.RestoreWeights;
import io.lanemq.console.change.Rollback;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.UUID;
import org.springframework.security.access.AccessDeniedException;

/**
 * Every change goes through here: authorised ({@link Ownership}), applied to the revision the editor started from,
 * validated as the SDK validates, previewed as a diff, then published with compare-and-swap on that revision and
 * recorded with author, time, comment and diff. Thread-safe (no state of its own).
 */
public final class ConfigEditor {
    private final ConfigStore store;
    private final Ownership ownership;

    public ConfigEditor(ConfigStore store, Ownership ownership) {
        this.store = store;
        this.ownership = ownership;
    }

    /**
     * @param baseRevision the revision the author's page showed
     * @throws AccessDeniedException          the author may not make this change
     * @throws ConflictException              the configuration is no longer at {@code baseRevision}
     * @throws InvalidPlatformConfigException the change cannot apply or the result is invalid (every problem by key)
     */
    public Proposal propose(String author, long baseRevision, Change change)
            throws EtcdException, ConflictException, InvalidPlatformConfigException {
        authorise(author, change);
        Published now = store.current();
        if (now.revision() != baseRevision) {
            throw conflict(baseRevision, now.revision());
        }
        if (!now.exists()) {
            throw new InvalidPlatformConfigException(store.describe(), List.of(new ConfigProblem("",
                    "no configuration is published at " + store.key() + " yet; publish a first one with the config tool")));
        }
        String yaml = Configs.applied(change, now.yaml(), store.describe());
        String diff = YamlDiff.between(now.yaml(), yaml, "revision " + baseRevision, change.describe());
        if (diff.isEmpty()) {
            throw new InvalidPlatformConfigException(change.describe(), List.of(new ConfigProblem("",
                    "this changes nothing: the document at revision " + baseRevision + " is the same after '"
                            + change.describe() + "'")));
        }
        return new Proposal(UUID.randomUUID().toString(), author, change, baseRevision, now.yaml(), yaml, diff);
    }

    /**
     * The change of an earlier proposal made again on the revision published now (after a conflict).
     *
     * @throws InvalidPlatformConfigException the change no longer applies to the current document
     * @throws ConflictException              the configuration changed again in between
     */
    public Proposal proposeAgain(String author, Proposal earlier) throws EtcdException, InvalidPlatformConfigException,
            ConflictException {
        return propose(author, store.current().revision(), earlier.change());
    }

    /**
     * Publishes a proposal of {@code author}'s.
     *
     * @param comment why (required; kept in the history)
     * @return the new revision
     * @throws IllegalArgumentException the comment is blank
     * @throws ConflictException        someone published first: nothing was written
     */
    public long publish(String author, Proposal proposal, String comment) throws EtcdException, ConflictException {
        if (!proposal.author().equals(author)) {
            throw new AccessDeniedException("a proposal is published by its author only");
        }
        authorise(author, proposal.change());
        if (comment == null || comment.isBlank()) {
            throw new IllegalArgumentException("a comment saying why is required");
        }
        List<String> refusals;
        try {
            refusals = PublishGuard.refusals(proposal.baseYaml(), proposal.yaml());
        } catch (InvalidConfigurationException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        if (!refusals.isEmpty()) {
            throw new IllegalArgumentException("refused: " + String.join("; ", refusals));
        }
        PublishOutcome outcome = store.publish(proposal.baseRevision(), proposal.yaml(), proposal.baseYaml(), author,
                comment.strip(), proposal.description(), proposal.diff());
        if (outcome.canaryPending()) {
            throw new IllegalArgumentException("a canary is pending in " + store.canaryKey()
                    + ": promote or abandon it (lanemq-config promote / abandon) before publishing for everyone");
        }
        if (!outcome.written()) {
            throw conflict(proposal.baseRevision(), outcome.revision());
        }
        return outcome.revision();
    }

    /** The change that undoes the drain published at {@code revision}: weights as they were before it. */
    public Change undoOf(long revision) throws EtcdException, InvalidPlatformConfigException {
        HistoryEntry drain = entry(revision);
        if (DrainIdc.drainedIn(drain) == null || drain.previousYaml().isEmpty()) {
            throw new IllegalArgumentException("revision " + revision + " is not a drain (" + drain.change() + ")");
        }
        return new RestoreWeights(drain.change() + " at revision " + revision, drain.previousYaml());
    }

    /** The change that publishes revision {@code revision}'s document again. */
    public Change rollbackTo(long revision) throws EtcdException, InvalidPlatformConfigException {
        HistoryEntry entry = entry(revision);
        if (!entry.ranEverywhere()) {
            throw new IllegalArgumentException("revision " + revision + " was a canary (" + entry.change()
                    + "), never in force for every client; roll back to a publish");
        }
        String yaml = entry.yaml();
        Configs.parse(yaml, "revision " + revision);
        return new Rollback(revision, yaml);
    }

    private HistoryEntry entry(long revision) throws EtcdException {
        return store.entry(revision).orElseThrow(() -> new NoSuchElementException("no revision " + revision + " in the history"));
    }

    private void authorise(String author, Change change) {
        if (!ownership.mayApply(author, change.scope())) {
            throw new AccessDeniedException(author + " may not " + change.describe());
        }
    }

    private ConflictException conflict(long baseRevision, long currentRevision) throws EtcdException {
        List<HistoryEntry> since = store.history().stream().filter(e -> e.revision() > baseRevision).toList();
        return new ConflictException(baseRevision, currentRevision, since);
    }
}

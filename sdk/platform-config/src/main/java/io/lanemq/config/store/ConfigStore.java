package io.lanemq.config.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.config.Canary;
import io.lanemq.config.etcd.EtcdClient;
import io.lanemq.config.etcd.EtcdEntry;
import io.lanemq.config.etcd.EtcdException;
import io.lanemq.config.etcd.TransactionResult;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The platform configuration key in etcd and its history under {@code <key>.history/}: one entry per published
 * revision, numbered in sequence, written in the same transaction as the configuration and only if the configuration
 * is still at the revision the editor started from. The console and the config tool both publish through here, so
 * each keeps the other's history and neither overwrites the other's change; a change made around both (etcdctl) has
 * no entry but still moves the revision, so it is never overwritten either.
 *
 * <p>A canary ({@link Canary}) is kept under {@code <key>.canary}. While one is pending, a publish for everyone is
 * refused (its base would be stale the moment the canary is promoted, and its clients would keep the candidate): the
 * operator promotes or abandons first. Each canary step checks both keys' revisions in the transaction that writes it.
 * Thread-safe (etcd serialises the writes).
 */
public final class ConfigStore {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final EtcdClient etcd;
    private final String key;
    private final String historyPrefix;

    private final String canaryKey;

    public ConfigStore(EtcdClient etcd, String key) {
        this.etcd = etcd;
        this.key = key;
        this.historyPrefix = key + ".history/";
        this.canaryKey = key + Canary.SUFFIX;
    }

    /** Where a pending canary is kept. */
    public String canaryKey() {
        return canaryKey;
    }

    /** The pending canary, if any. */
    public Optional<PendingCanary> canary() throws EtcdException {
        Optional<EtcdEntry> stored = etcd.get(canaryKey);
        if (stored.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new PendingCanary(Canary.parse(stored.get().value(), describe() + Canary.SUFFIX),
                    stored.get().modRevision()));
        } catch (InvalidConfigurationException e) {
            throw new IllegalStateException(e.getMessage() + "; abandon it (etcdctl del " + canaryKey + ")", e);
        }
    }

    /**
     * Publishes {@code canary}'s candidate to its subset if the configuration is still at {@code canary.base()} and the
     * canary key at {@code canaryRevision} (0: no canary pending; a pending one may be replaced, e.g. widened).
     *
     * @param diff the candidate's diff against the configuration
     */
    public PublishOutcome publishCanary(long canaryRevision, Canary canary, String author, String comment, String diff)
            throws EtcdException {
        Published now = current();
        String record = encode(new Stored(author, Instant.now().toString(), comment, "canary to " + canary.target().describe(),
                diff, canary.document(), now.yaml() == null ? "" : now.yaml(), HistoryEntry.Kind.CANARY.name()));
        TransactionResult result = etcd.transact(Map.of(key, canary.base(), canaryKey, canaryRevision),
                Map.of(canaryKey, canary.toText(), nextHistoryKey(), record), List.of());
        return outcome(result);
    }

    /**
     * Writes the pending canary's candidate as the configuration for everyone and removes the canary, if the canary is
     * still at {@code canaryRevision} and the configuration at the canary's base.
     *
     * @return not written when either moved; an {@link IllegalStateException} when no canary is pending
     */
    public PublishOutcome promote(long canaryRevision, String author, String comment) throws EtcdException {
        PendingCanary pending = canary().orElseThrow(() -> new IllegalStateException("no canary is pending in " + canaryKey));
        Published now = current();
        Canary canary = pending.canary();
        String record = encode(new Stored(author, Instant.now().toString(), comment,
                "promote the canary of revision " + pending.revision() + " (" + canary.target().describe() + ") to everyone",
                YamlDiff.between(now.yaml(), canary.document(), "revision " + now.revision(), "canary revision " + pending.revision()),
                canary.document(), now.yaml() == null ? "" : now.yaml(), HistoryEntry.Kind.PROMOTE.name()));
        TransactionResult result = etcd.transact(Map.of(canaryKey, canaryRevision, key, canary.base()),
                Map.of(key, canary.document(), nextHistoryKey(), record), List.of(canaryKey));
        return outcome(result);
    }

    /** Removes the pending canary if it is still at {@code canaryRevision}: its clients return to the configuration. */
    public PublishOutcome abandon(long canaryRevision, String author, String comment) throws EtcdException {
        PendingCanary pending = canary().orElseThrow(() -> new IllegalStateException("no canary is pending in " + canaryKey));
        Published now = current();
        String record = encode(new Stored(author, Instant.now().toString(), comment,
                "abandon the canary of revision " + pending.revision() + " (" + pending.canary().target().describe() + ")",
                YamlDiff.between(pending.canary().document(), now.yaml() == null ? "" : now.yaml(),
                        "canary revision " + pending.revision(), "revision " + now.revision()),
                now.yaml() == null ? "" : now.yaml(), pending.canary().document(), HistoryEntry.Kind.ABANDON.name()));
        TransactionResult result = etcd.transact(Map.of(canaryKey, canaryRevision),
                Map.of(nextHistoryKey(), record), List.of(canaryKey));
        return outcome(result);
    }

    private PublishOutcome outcome(TransactionResult result) throws EtcdException {
        if (result.written()) {
            return new PublishOutcome(true, result.revision());
        }
        return new PublishOutcome(false, current().revision(), etcd.get(canaryKey).isPresent());
    }

    private String nextHistoryKey() throws EtcdException {
        List<EtcdEntry> existing = etcd.list(historyPrefix);
        long sequence = existing.isEmpty() ? 1 : sequenceOf(existing.get(existing.size() - 1)) + 1;
        return historyPrefix + String.format("%010d", sequence);
    }

    public String key() {
        return key;
    }

    public String describe() {
        return "etcd://" + etcd.describe() + key;
    }

    public Published current() throws EtcdException {
        return etcd.get(key).map(e -> new Published(e.value(), e.modRevision())).orElse(new Published(null, 0));
    }

    /** Every entry, newest first. */
    public List<HistoryEntry> history() throws EtcdException {
        List<HistoryEntry> entries = new ArrayList<>();
        for (EtcdEntry stored : etcd.list(historyPrefix)) {
            entries.add(decode(stored));
        }
        entries.sort(Comparator.comparingLong(HistoryEntry::revision).reversed());
        return entries;
    }

    /**
     * The write made around the console and the config tool (etcdctl) when the key is newer than its newest history
     * entry: its document, diffed against that entry's. Writes in between that were overwritten again have left no
     * trace here and show as one. Empty when the newest write has its entry (or nothing is published).
     */
    public Optional<HistoryEntry> unrecorded() throws EtcdException {
        Published now = current();
        List<HistoryEntry> entries = history();
        long newest = entries.isEmpty() ? 0 : entries.get(0).revision();
        if (!now.exists() || now.revision() <= newest) {
            return Optional.empty();
        }
        String previous = entries.isEmpty() ? "" : entries.get(0).yaml();
        String since = entries.isEmpty() ? "nothing" : "revision " + newest;
        return Optional.of(new HistoryEntry(now.revision(), "unknown", null, "", WRITTEN_AROUND,
                YamlDiff.between(previous, now.yaml(), since, "revision " + now.revision()), now.yaml(), previous));
    }

    /** The change of an {@link #unrecorded()} entry. */
    public static final String WRITTEN_AROUND = "written around the console and the config tool";

    public Optional<HistoryEntry> entry(long revision) throws EtcdException {
        return history().stream().filter(e -> e.revision() == revision).findFirst();
    }

    /**
     * Writes {@code yaml} and its history entry if the configuration is still at {@code baseRevision}.
     *
     * @param previousYaml the document at {@code baseRevision} (what the diff was made against)
     */
    public PublishOutcome publish(long baseRevision, String yaml, String previousYaml, String author, String comment,
                                  String change, String diff) throws EtcdException {
        String record = encode(new Stored(author, Instant.now().toString(), comment, change, diff, yaml,
                previousYaml == null ? "" : previousYaml, HistoryEntry.Kind.PUBLISH.name()));
        TransactionResult result = etcd.transact(Map.of(key, baseRevision, canaryKey, 0L),
                Map.of(key, yaml, nextHistoryKey(), record), List.of());
        return outcome(result);
    }

    private long sequenceOf(EtcdEntry entry) {
        return Long.parseLong(entry.key().substring(historyPrefix.length()));
    }

    /** The stored form: the revision is not in it, it is the entry's own etcd revision. */
    private record Stored(String author, String at, String comment, String change, String diff, String yaml,
                          String previousYaml, String kind) {
    }

    private static String encode(Stored stored) {
        try {
            return JSON.writeValueAsString(stored);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("a record of strings failed to serialise", e);
        }
    }

    private static HistoryEntry decode(EtcdEntry entry) {
        try {
            Stored s = JSON.readValue(entry.value(), Stored.class);
            // Entries written before canaries existed have no kind: they were publishes.
            HistoryEntry.Kind kind = s.kind() == null ? HistoryEntry.Kind.PUBLISH : HistoryEntry.Kind.valueOf(s.kind());
            return new HistoryEntry(entry.modRevision(), s.author(), Instant.parse(s.at()), s.comment(), s.change(),
                    s.diff(), s.yaml(), s.previousYaml(), kind);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("history entry " + entry.key() + " is not a console record: " + e.getOriginalMessage(), e);
        }
    }
}

package io.lanemq.config.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lanemq.config.etcd.CompareAndPutResult;
import io.lanemq.config.etcd.EtcdClient;
import io.lanemq.config.etcd.EtcdEntry;
import io.lanemq.config.etcd.EtcdException;
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
 * no entry but still moves the revision, so it is never overwritten either. Thread-safe (etcd serialises the writes).
 */
public final class ConfigStore {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final EtcdClient etcd;
    private final String key;
    private final String historyPrefix;

    public ConfigStore(EtcdClient etcd, String key) {
        this.etcd = etcd;
        this.key = key;
        this.historyPrefix = key + ".history/";
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
        List<EtcdEntry> existing = etcd.list(historyPrefix);
        long sequence = existing.isEmpty() ? 1 : sequenceOf(existing.get(existing.size() - 1)) + 1;
        String record = encode(new Stored(author, Instant.now().toString(), comment, change, diff, yaml,
                previousYaml == null ? "" : previousYaml));
        CompareAndPutResult result = etcd.compareAndPut(key, baseRevision, yaml,
                Map.of(historyPrefix + String.format("%010d", sequence), record));
        if (result.written()) {
            return new PublishOutcome(true, result.revision());
        }
        return new PublishOutcome(false, result.current().map(EtcdEntry::modRevision).orElse(0L));
    }

    private long sequenceOf(EtcdEntry entry) {
        return Long.parseLong(entry.key().substring(historyPrefix.length()));
    }

    /** The stored form: the revision is not in it, it is the entry's own etcd revision. */
    private record Stored(String author, String at, String comment, String change, String diff, String yaml,
                          String previousYaml) {
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
            return new HistoryEntry(entry.modRevision(), s.author(), Instant.parse(s.at()), s.comment(), s.change(),
                    s.diff(), s.yaml(), s.previousYaml());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("history entry " + entry.key() + " is not a console record: " + e.getOriginalMessage(), e);
        }
    }
}

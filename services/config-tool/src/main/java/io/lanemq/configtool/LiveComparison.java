package io.lanemq.configtool;

import io.lanemq.config.etcd.EtcdException;
import io.lanemq.config.store.ConfigStore;
import io.lanemq.config.store.Published;
import io.lanemq.config.store.YamlDiff;

/**
 * A validated file against what its etcd key holds now: the live document, its revision and the unified diff from it
 * to the file (what {@code diff} prints and {@code publish} would write).
 */
record LiveComparison(ConfigFile file, Published live, String diff) {

    static LiveComparison of(ConfigFile file, ConfigStore store) throws EtcdException {
        Published live = store.current();
        String from = live.exists() ? store.key() + " at revision " + live.revision() : store.key() + " (absent)";
        return new LiveComparison(file, live, YamlDiff.between(live.yaml(), file.text(), from, file.path().toString()));
    }

    boolean unchanged() {
        return diff.isEmpty();
    }

    /** "at revision 12", or "absent" when the key holds nothing yet. */
    String liveState() {
        return live.exists() ? "at revision " + live.revision() : "absent";
    }
}

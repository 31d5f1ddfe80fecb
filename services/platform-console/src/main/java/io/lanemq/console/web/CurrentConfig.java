package io.lanemq.console.web;

import io.lanemq.config.InvalidPlatformConfigException;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.etcd.EtcdException;
import io.lanemq.config.store.ConfigStore;
import io.lanemq.config.store.Published;
import io.lanemq.console.change.Configs;
import org.springframework.stereotype.Component;

/** The configuration a page shows, with the revision its forms start from. */
@Component
class CurrentConfig {
    private final ConfigStore store;

    CurrentConfig(ConfigStore store) {
        this.store = store;
    }

    /**
     * @param config null when no document is published yet
     * @param yaml   the published text, null when there is none
     */
    record Snapshot(PlatformConfig config, long revision, String yaml) {
    }

    Snapshot read() throws EtcdException, InvalidPlatformConfigException {
        Published now = store.current();
        return new Snapshot(now.exists() ? Configs.parse(now.yaml(), store.describe()) : null, now.revision(),
                now.exists() ? now.yaml() : null);
    }
}

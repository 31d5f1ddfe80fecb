package io.lanemq.config.etcd;

/** Told by {@link EtcdClient#watch} what happened to one key; called from the watch's own thread, in revision order. */
public interface KeyWatchListener {
    /** The key now holds {@code entry} (a put, or the current value re-read after the history was compacted). */
    void onPut(EtcdEntry entry);

    /** The key was deleted at {@code revision}. */
    void onDelete(String key, long revision);
}

package io.lanemq.console.web;

import io.lanemq.config.store.HistoryEntry;
import java.util.List;

/**
 * One page of the history, newest first: page 1 holds the newest {@code size} entries, each following page the next
 * older ones, so walking the "older" links from page 1 shows every entry once.
 *
 * @param entries the entries on this page
 * @param page    this page's number, from 1
 * @param pages   how many pages there are (at least 1, so an empty history is one empty page)
 */
record HistoryPage(List<HistoryEntry> entries, int page, int pages) {
    HistoryPage {
        entries = List.copyOf(entries);
    }

    /**
     * @param all       every entry, newest first
     * @param requested the page asked for; one out of range gives the nearest page there is
     * @param size      entries a page
     */
    static HistoryPage of(List<HistoryEntry> all, int requested, int size) {
        int pages = Math.max(1, (all.size() + size - 1) / size);
        int shown = Math.min(Math.max(requested, 1), pages);
        return new HistoryPage(all.subList((shown - 1) * size, Math.min(all.size(), shown * size)), shown, pages);
    }

    /** A page of newer entries exists: the "newer" link. */
    public boolean hasNewer() {
        return page > 1;
    }

    /** A page of older entries exists: the "older" link. */
    public boolean hasOlder() {
        return page < pages;
    }
}

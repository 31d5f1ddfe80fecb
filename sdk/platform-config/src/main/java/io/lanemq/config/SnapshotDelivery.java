package io.lanemq.config;

import io.lanemq.api.InvalidConfigurationException;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the documents a watching source reads into {@link ConfigListener} calls: a document equal to the
 * last one seen is dropped, a changed one is parsed, and becomes {@code onChange} when valid and
 * {@code onRejected} (the parser's key-and-line message) when not. The listener keeps its last good snapshot.
 *
 * <p>It compares text rather than parsed snapshots: a document is kilobytes, and an edit that parses to an
 * equal snapshot (a comment) costs at most one needless swap. After a rejection the next different document is
 * delivered even when it equals the last good one, so a listener sees that the bad state is over.
 *
 * <p>A canary's candidate counts as different from the same text as the configuration, and from itself at another
 * canary revision: a promoted client must learn it runs the configuration now, and the revision it reports must move.
 *
 * <p>Not thread-safe: each source drives it from its one watch thread, which keeps calls in order.
 */
final class SnapshotDelivery {
    private static final Logger LOG = LoggerFactory.getLogger(SnapshotDelivery.class);
    private static final Object ABSENT = new Object();

    private final PlatformConfigParser parser;
    private final ConfigListener listener;
    private Object lastSeen;

    /**
     * @param baseline what the caller already has (from {@code load()}, as {@link #seen}), or null when none
     */
    SnapshotDelivery(PlatformConfigParser parser, ConfigListener listener, String baseline) {
        this.parser = Objects.requireNonNull(parser, "parser");
        this.listener = Objects.requireNonNull(listener, "listener");
        this.lastSeen = baseline;
    }

    /** As {@link #offer(ConfigDocument, String)} for a source without revisions (a file), named {@code origin}. */
    boolean offer(String text, String origin) {
        return offer(ConfigDocument.fresh(origin, origin, 0, text), origin);
    }

    /**
     * @param document what the source read; the snapshot delivered carries it ({@link PlatformConfig#document()})
     * @param origin   names where the document came from in a rejection ({@code file:/etc/...}, an etcd key and revision)
     * @return whether the listener was called
     */
    boolean offer(ConfigDocument document, String origin) {
        String text = document.text();
        String seen = seen(document);
        if (seen.equals(lastSeen)) {
            return false;
        }
        lastSeen = seen;
        PlatformConfig next;
        try {
            next = parser.parse(text, origin).withDocument(document);
        } catch (InvalidConfigurationException e) {
            call(origin, () -> listener.onRejected(e));
            return true;
        }
        call(origin, () -> listener.onChange(next));
        return true;
    }

    /** What is compared with the last document offered: its text, and for a canary's candidate its revision. */
    static String seen(ConfigDocument document) {
        return document.canary() ? "canary " + document.revision() + "\n" + document.text() : document.text();
    }

    /** The document is gone or unreadable: rejected once, until a document can be read again. */
    boolean offerAbsent(InvalidConfigurationException why, String origin) {
        if (lastSeen == ABSENT) {
            return false;
        }
        lastSeen = ABSENT;
        call(origin, () -> listener.onRejected(why));
        return true;
    }

    private static void call(String origin, Runnable callback) {
        try {
            callback.run();
        } catch (RuntimeException e) {
            // The watch thread must outlive a faulty listener; the next change is delivered as usual.
            LOG.warn("platform configuration listener failed on a change from {}", origin, e);
        }
    }
}

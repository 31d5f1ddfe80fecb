package io.lanemq.config;

import java.time.Duration;

/**
 * How a producer gathers concurrent sends of one logic topic into batch requests: sends to the same cluster,
 * physical topic and sharding key (so the same queue) that arrive while earlier requests of theirs are in
 * flight travel together in the next request. A lone sender is never held back: with nothing in flight its
 * send leaves at once (unless {@code linger} is set), so gathering costs latency only where requests queue anyway.
 *
 * @param maxMessages at most this many messages per request; 1 turns gathering off
 * @param maxBytes    at most this many bytes (bodies and properties) per request; a larger message goes alone
 * @param maxInFlight requests of one queue in flight at once; what arrives while all are out waits for the next
 * @param linger      how long a request with room left may wait for more messages while a slot is free
 *                    (0: it leaves at once); the time bound of a gathering next to its count and bytes. The
 *                    producer waits only while waiting pays: while recent waits of the queue gathered others
 *                    (a lone synchronous sender or a sparse stream sends at once, with a wait tried once a second)
 */
public record BatchConfig(int maxMessages, int maxBytes, int maxInFlight, Duration linger) {
    /** The most bytes a request may carry: RocketMQ's default maxMessageSize (4 MiB) less room for headers. */
    public static final int MAX_BYTES_LIMIT = 4 * 1024 * 1024 - 64 * 1024;

    /**
     * Defaults: up to 256 messages or 256 KiB per request, one request of a queue in flight, no linger, chosen with
     * the produce-batch benchmark (its figures: testing/benchmarks/README.md, Measurements). One request in flight makes the
     * fullest requests for synchronous senders, which are most callers; 256 messages lets an asynchronous burst fill
     * them.
     */
    public static final BatchConfig DEFAULTS = new BatchConfig(256, 256 * 1024, 1, Duration.ZERO);

    /** No gathering: every send is its own request. */
    public static final BatchConfig OFF = new BatchConfig(1, MAX_BYTES_LIMIT, Integer.MAX_VALUE, Duration.ZERO);

    public boolean gathers() {
        return maxMessages > 1;
    }
}

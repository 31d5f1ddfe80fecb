package io.lanemq.core.internal.lane;

import io.lanemq.api.Lane;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.Optional;

/**
 * A consumer-group member that takes part in lanes: its lane (empty for the base) and where it takes
 * forwarded messages. It travels as the member tag of its consumers,
 * {@code <lane path>~<host>~<port>} with an empty path for the base, which the brokers list with the
 * group's members; so the group's lanes are learnt from the consumers that run, with no registry.
 */
record LaneMember(Optional<Lane> lane, String host, int port) {
    private static final char SEPARATOR = '~';

    LaneMember {
        Objects.requireNonNull(lane, "lane");
        Objects.requireNonNull(host, "host");
        if (host.isEmpty() || host.indexOf(SEPARATOR) >= 0) {
            throw new IllegalArgumentException("member host must be non-empty without '~', was '" + host + "'");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("member port must be 1-65535, was " + port);
        }
    }

    String tag() {
        return lane.map(Lane::path).orElse("") + SEPARATOR + host + SEPARATOR + port;
    }

    /** The member a tag stands for; empty for a tag that is not one (another kind of member, a newer format). */
    static Optional<LaneMember> parse(String tag) {
        int first = tag.indexOf(SEPARATOR);
        int last = tag.lastIndexOf(SEPARATOR);
        if (first < 0 || last == first) {
            return Optional.empty();
        }
        String path = tag.substring(0, first);
        Optional<Lane> lane = path.isEmpty() ? Optional.empty() : Lane.parse(path);
        if (!path.isEmpty() && lane.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new LaneMember(lane, tag.substring(first + 1, last), Integer.parseInt(tag.substring(last + 1))));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    InetSocketAddress address() {
        return InetSocketAddress.createUnresolved(host, port);
    }

    @Override
    public String toString() {
        return lane.map(Lane::path).orElse("base") + "@" + host + ":" + port;
    }
}

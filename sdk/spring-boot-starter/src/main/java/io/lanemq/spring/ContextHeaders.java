package io.lanemq.spring;

import io.lanemq.api.Lane;
import io.lanemq.api.MessageContext;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Reads the {@link MessageContext} a request's headers name: the lane header (absent: the base) and the
 * stress-test header ({@code true} or {@code false}, any case). Strict on purpose: a lane or stress-test
 * request with a header the platform cannot read must be refused, never served as production traffic,
 * so an empty, repeated or malformed value is a {@link MalformedHeaderException}, not the base.
 *
 * <p>Free of the servlet API, so the properties can build it in any application; immutable.
 */
final class ContextHeaders {
    /** An RFC 9110 token: what a header field name may be. */
    private static final Pattern HEADER_NAME = Pattern.compile("[A-Za-z0-9!#$%&'*+\\-.^_`|~]+");

    private final String laneHeader;
    private final String stressTestHeader;

    ContextHeaders(String laneHeader, String stressTestHeader) {
        this.laneHeader = laneHeader;
        this.stressTestHeader = stressTestHeader;
    }

    static boolean isHeaderName(String name) {
        return HEADER_NAME.matcher(name).matches();
    }

    String laneHeader() {
        return laneHeader;
    }

    String stressTestHeader() {
        return stressTestHeader;
    }

    /**
     * The context of a request whose header values are {@code values.apply(name)} (empty when absent),
     * starting from {@link MessageContext#none()}: nothing of the thread's previous work leaks in.
     */
    MessageContext read(Function<String, List<String>> values) throws MalformedHeaderException {
        MessageContext context = MessageContext.none();
        String lane = single(laneHeader, values.apply(laneHeader));
        if (lane != null) {
            try {
                context = context.withLane(Lane.of(lane));
            } catch (IllegalArgumentException e) {
                throw new MalformedHeaderException(laneHeader, e.getMessage());
            }
        }
        String stressTest = single(stressTestHeader, values.apply(stressTestHeader));
        if (stressTest != null) {
            context = context.withStressTest(switch (stressTest.toLowerCase(Locale.ROOT)) {
                case "true" -> true;
                case "false" -> false;
                default -> throw new MalformedHeaderException(stressTestHeader, "must be true or false");
            });
        }
        return context;
    }

    /** The header's one value, or null when absent; two values could name two lanes, so they are refused. */
    private static String single(String header, List<String> values) throws MalformedHeaderException {
        if (values.isEmpty()) {
            return null;
        }
        if (values.size() > 1) {
            throw new MalformedHeaderException(header, "must appear once, but appeared " + values.size() + " times");
        }
        return values.get(0).strip();
    }

    /** A context header the request carries but the platform cannot read; the message names the header. */
    static final class MalformedHeaderException extends Exception {
        private final String header;

        MalformedHeaderException(String header, String problem) {
            super(header + ": " + problem, null, false, false);
            this.header = header;
        }

        String header() {
            return header;
        }
    }
}

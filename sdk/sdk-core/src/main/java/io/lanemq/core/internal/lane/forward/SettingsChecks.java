package io.lanemq.core.internal.lane.forward;

import java.time.Duration;

/** The checks the forwarding settings share; each message names the record and the field. */
final class SettingsChecks {
    private SettingsChecks() {
    }

    static <T> T required(T value, String field) {
        if (value == null) {
            throw new IllegalArgumentException(field + " is required");
        }
        return value;
    }

    static Duration positive(Duration value, String field) {
        if (required(value, field).isNegative() || value.isZero()) {
            throw new IllegalArgumentException(field + " must be positive, was " + value);
        }
        return value;
    }

    static int atLeast(int value, int minimum, String field) {
        if (value < minimum) {
            throw new IllegalArgumentException(field + " must be at least " + minimum + ", was " + value);
        }
        return value;
    }

    /** A token travels in an HTTP/2 header: printable ASCII without spaces, and not empty. */
    static String token(String value, String field) {
        if (required(value, field).isEmpty()) {
            throw new IllegalArgumentException(field + " must not be empty");
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c <= ' ' || c > '~') {
                // The value itself stays out of the message: it is a secret.
                throw new IllegalArgumentException(field + " may hold only printable ASCII without spaces (character "
                        + (i + 1) + " is not)");
            }
        }
        return value;
    }
}

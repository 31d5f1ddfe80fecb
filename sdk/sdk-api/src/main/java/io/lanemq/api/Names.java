package io.lanemq.api;

import java.util.regex.Pattern;

/** Argument checks shared by the API's builders, so every builder words its errors alike. */
final class Names {
    /** Logic topics, groups and application names: what RocketMQ accepts in a topic name. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.\\-]{1,127}");

    private Names() {
    }

    static String requireName(String field, String value) {
        if (value == null || !NAME.matcher(value).matches()) {
            throw new IllegalArgumentException(field + " must be 1-127 characters of letters, digits, '.', '_' or '-', but was "
                    + (value == null ? "null" : "'" + value + "'"));
        }
        return value;
    }

    static String requireText(String field, String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(field + " must not be null or blank");
        }
        for (int i = 0; i < value.length(); i++) {
            if (Character.isISOControl(value.charAt(i))) {
                throw new IllegalArgumentException(field + " must not contain control characters: '" + value.strip() + "'");
            }
        }
        return value;
    }
}

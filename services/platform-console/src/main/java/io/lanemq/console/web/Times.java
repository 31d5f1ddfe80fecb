package io.lanemq.console.web;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** How the pages write a moment: to the second, with its zone ({@code 2026-11-28 16:42:57 UTC}). */
public final class Times {
    private static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);

    private Times() {
    }

    public static String of(Instant at) {
        return at == null ? "" : FORMAT.format(at);
    }
}

package io.lanemq.console.health;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads Prometheus' text exposition format (what {@code /metrics} of the dial test and of services serve) into
 * samples. A small parser of our own because the class path has none: the Prometheus Java client 1.x that
 * Micrometer brings ({@code prometheus-metrics-exposition-textformats}) only writes the format, and the Prometheus
 * project's parsers are in Go. Comments ({@code # HELP}, {@code # TYPE}) and timestamps are ignored; a line that is
 * not a sample is skipped rather than failing the whole page.
 */
public final class PrometheusText {
    private PrometheusText() {
    }

    /** One sample: a series (name and labels) and its value. */
    public record Sample(String name, Map<String, String> labels, double value) {
        public Sample {
            labels = Map.copyOf(labels);
        }

        public String label(String key) {
            return labels.getOrDefault(key, "");
        }
    }

    public static List<Sample> parse(String text) {
        List<Sample> samples = new ArrayList<>();
        for (String raw : text.split("\n")) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            Sample sample = parseLine(line);
            if (sample != null) {
                samples.add(sample);
            }
        }
        return samples;
    }

    private static Sample parseLine(String line) {
        int i = 0;
        while (i < line.length() && line.charAt(i) != '{' && !Character.isWhitespace(line.charAt(i))) {
            i++;
        }
        String name = line.substring(0, i);
        Map<String, String> labels = new LinkedHashMap<>();
        if (i < line.length() && line.charAt(i) == '{') {
            i = labels(line, i + 1, labels);
            if (i < 0) {
                return null;
            }
        }
        String[] rest = line.substring(i).strip().split("\\s+");
        try {
            return new Sample(name, labels, value(rest[0]));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** Reads {@code key="value",...}} from {@code i}; returns the index after the closing brace, -1 when malformed. */
    private static int labels(String line, int i, Map<String, String> labels) {
        while (i < line.length()) {
            char c = line.charAt(i);
            if (c == '}') {
                return i + 1;
            }
            if (c == ',' || c == ' ') {
                i++;
                continue;
            }
            int eq = line.indexOf('=', i);
            if (eq < 0 || eq + 1 >= line.length() || line.charAt(eq + 1) != '"') {
                return -1;
            }
            String key = line.substring(i, eq).strip();
            StringBuilder value = new StringBuilder();
            int j = eq + 2;
            for (; j < line.length() && line.charAt(j) != '"'; j++) {
                char v = line.charAt(j);
                if (v == '\\' && j + 1 < line.length()) {
                    char escaped = line.charAt(++j);
                    value.append(escaped == 'n' ? '\n' : escaped);
                } else {
                    value.append(v);
                }
            }
            if (j >= line.length()) {
                return -1;
            }
            labels.put(key, value.toString());
            i = j + 1;
        }
        return -1;
    }

    static double value(String text) {
        return switch (text) {
            case "+Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            case "NaN" -> Double.NaN;
            default -> Double.parseDouble(text);
        };
    }
}

package io.lanemq.testkit.metrics;

import io.lanemq.testkit.RepoRoot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Metric names on both sides of a dashboard: those a Prometheus scrape exports, and those a dashboard or
 * rules file queries. Tests compare the two so a renamed meter cannot leave a panel or an alert silently empty.
 */
public final class PrometheusNames {

    private PrometheusNames() {
    }

    /** The platform's dashboards and alert rules, found from any module's directory (the tests' working directory). */
    public static Path dashboardsDir() {
        return RepoRoot.resolve("observability");
    }

    /** The sample names of a scrape in the text exposition format ({@code _total}, {@code _bucket}... included). */
    public static Set<String> ofScrape(String scrape) {
        return Arrays.stream(scrape.split("\n")).filter(line -> !line.startsWith("#") && !line.isBlank())
                .map(line -> line.replaceAll("[{ ].*", "")).collect(Collectors.toCollection(TreeSet::new));
    }

    /** Every name starting with {@code prefix} (e.g. {@code lanemq_proxy_}) anywhere in a dashboard or rules file. */
    public static Set<String> inFile(Path file, String prefix) {
        Matcher matcher = Pattern.compile("\\b" + Pattern.quote(prefix) + "[a-z0-9_]*").matcher(read(file));
        Set<String> names = new TreeSet<>();
        while (matcher.find()) {
            names.add(matcher.group());
        }
        return names;
    }

    /**
     * The Prometheus base names of a metrics class's meter-name constants (its static String fields, except
     * tag names {@code TAG_*}): {@code lanemq.proxy.in.flight} becomes {@code lanemq_proxy_in_flight}.
     */
    public static Set<String> constantsOf(Class<?> metrics) {
        Set<String> names = new TreeSet<>();
        for (Field field : metrics.getDeclaredFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class && !field.getName().startsWith("TAG_")) {
                field.setAccessible(true);
                try {
                    names.add(((String) field.get(null)).replace('.', '_'));
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException("cannot read " + field, e);
                }
            }
        }
        return names;
    }

    /** Whether {@code names} holds {@code base} itself or one of its suffixed series ({@code base_total}...). */
    public static boolean covers(Set<String> names, String base) {
        return names.stream().anyMatch(name -> name.equals(base) || name.startsWith(base + "_"));
    }

    /** Names under {@code prefix} that the files query and the scrape does not export: each one an empty panel or a dead alert. */
    public static Set<String> queriedButNotExported(Set<String> exported, String prefix, Path... files) {
        Set<String> missing = new TreeSet<>();
        for (Path file : files) {
            inFile(file, prefix).stream().filter(name -> !exported.contains(name)).forEach(missing::add);
        }
        return missing;
    }

    /** The meter-name constants of {@code metrics} that no query of {@code dashboard} shows. */
    public static Set<String> notShown(Class<?> metrics, Path dashboard, String prefix) {
        Set<String> shown = inFile(dashboard, prefix);
        Set<String> missing = new TreeSet<>(constantsOf(metrics));
        missing.removeIf(constant -> covers(shown, constant));
        return missing;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file.toAbsolutePath(), e);
        }
    }
}

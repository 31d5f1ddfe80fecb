package io.lanemq.testkit;

import java.io.File;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The class path of the child JVMs: the parent's own.
 *
 * <p>{@code java.class.path} covers plain {@code java -cp} runs and surefire/failsafe forks (there it may be a
 * manifest-only jar whose Class-Path the child JVM follows just the same). Launchers that load the application
 * through a {@link URLClassLoader} (e.g. {@code exec:java}) leave {@code java.class.path} pointing at themselves,
 * so the URLs of such loaders come first. {@value #OVERRIDE} replaces the whole when neither fits.
 */
final class ChildClasspath {

    static final String OVERRIDE = "lanemq.testkit.classpath";

    private ChildClasspath() {
    }

    static String resolve() {
        String override = System.getProperty(OVERRIDE);
        if (override != null && !override.isBlank()) {
            return override;
        }
        Set<String> entries = new LinkedHashSet<>();
        for (ClassLoader cl = ChildClasspath.class.getClassLoader(); cl != null; cl = cl.getParent()) {
            if (cl instanceof URLClassLoader urlLoader) {
                for (URL url : urlLoader.getURLs()) {
                    if ("file".equals(url.getProtocol())) {
                        try {
                            entries.add(Path.of(url.toURI()).toString());
                        } catch (URISyntaxException | IllegalArgumentException ignored) {
                            // Not a plain file entry: the child could not use it anyway.
                        }
                    }
                }
            }
        }
        for (String entry : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
            if (!entry.isBlank()) {
                // Children run in their own directory, so a relative entry ("target/app.jar") must be resolved here.
                entries.add(Path.of(entry).toAbsolutePath().toString());
            }
        }
        return String.join(File.pathSeparator, entries);
    }
}

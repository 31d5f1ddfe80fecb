package io.lanemq.testkit;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The repository's root directory, for tests that read files kept outside their module ({@code observability/},
 * {@code deploy/}, {@code examples/}). It is found by walking up from the working directory, so a test reads the
 * same file whether its module sits at the root or one group deeper.
 *
 * <p>{@code RepoRoot.resolve("deploy", "broker", "broker.conf")}
 */
public final class RepoRoot {

    private RepoRoot() {
    }

    /**
     * The nearest directory at or above the working directory that holds both {@code pom.xml} and {@code .ci/run}.
     *
     * @throws IllegalStateException when no such directory exists (the test runs outside a checkout)
     */
    public static Path dir() {
        return above(Path.of("").toAbsolutePath());
    }

    /** A path under the repository's root, e.g. {@code resolve("observability")}. */
    public static Path resolve(String first, String... more) {
        return dir().resolve(Path.of(first, more)).normalize();
    }

    static Path above(Path start) {
        for (Path dir = start.normalize(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("pom.xml")) && Files.isRegularFile(dir.resolve(".ci/run"))) {
                return dir;
            }
        }
        throw new IllegalStateException("no repository root (a directory with pom.xml and .ci/run) at or above "
                + start);
    }
}

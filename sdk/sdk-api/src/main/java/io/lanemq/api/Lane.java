package io.lanemq.api;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A lane: an isolated line of development or testing that shares the production topics, named by a
 * dotted path. {@code A} is a project, {@code A.X} a sub-project of {@code A}. The production traffic
 * has no lane (the <em>base</em>), so base is {@code Optional.empty()} wherever a lane is optional.
 *
 * <p>A message belongs to the lane of the {@link MessageContext} it was sent in. It is consumed by a
 * consumer of the most specific lane on its path that has a live consumer in the group: a message of
 * {@code A.X} goes to {@code A.X}'s consumers, or {@code A}'s when {@code A.X} has none, or the base
 * consumers when neither has.
 *
 * <p>Immutable; equal when the paths are equal.
 */
public final class Lane {
    /** The longest lane path accepted, in characters. */
    public static final int MAX_LENGTH = 64;
    /** The deepest lane accepted: {@code A.B.C.D} has depth 4. */
    public static final int MAX_DEPTH = 4;
    private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9_\\-]+");

    private final String path;

    private Lane(String path) {
        this.path = path;
    }

    /**
     * The lane with the given dotted path, such as {@code "A"} or {@code "A.X"}.
     *
     * @throws IllegalArgumentException a path that is not 1 to {@value #MAX_DEPTH} dot-separated
     *                                  segments of letters, digits, '_' or '-', at most {@value #MAX_LENGTH} characters
     */
    public static Lane of(String path) {
        String problem = problem(path);
        if (problem != null) {
            throw new IllegalArgumentException("lane " + (path == null ? "null" : "'" + path + "'") + " " + problem);
        }
        return new Lane(path);
    }

    /** The lane of a path, or empty when the path is not a valid lane path; for stamps that come from outside. */
    public static Optional<Lane> parse(String path) {
        return problem(path) == null ? Optional.of(new Lane(path)) : Optional.empty();
    }

    private static String problem(String path) {
        if (path == null || path.isEmpty()) {
            return "must not be empty (the base lane is no lane at all)";
        }
        if (path.length() > MAX_LENGTH) {
            return "is longer than " + MAX_LENGTH + " characters";
        }
        String[] segments = path.split("\\.", -1);
        if (segments.length > MAX_DEPTH) {
            return "is deeper than " + MAX_DEPTH + " levels";
        }
        for (String segment : segments) {
            if (!SEGMENT.matcher(segment).matches()) {
                return "must be dot-separated segments of letters, digits, '_' or '-'";
            }
        }
        return null;
    }

    /** The dotted path, such as {@code "A.X"}. */
    public String path() {
        return path;
    }

    /** The lane this one falls back to: {@code A} for {@code A.X}; empty for a top-level lane, whose parent is the base. */
    public Optional<Lane> parent() {
        int dot = path.lastIndexOf('.');
        return dot < 0 ? Optional.empty() : Optional.of(new Lane(path.substring(0, dot)));
    }

    /** This lane and the lanes it falls back to, most specific first: {@code [A.X, A]} for {@code A.X} (then the base). */
    public List<Lane> fallbackPath() {
        List<Lane> lanes = new ArrayList<>();
        for (Optional<Lane> lane = Optional.of(this); lane.isPresent(); lane = lane.get().parent()) {
            lanes.add(lane.get());
        }
        return Collections.unmodifiableList(lanes);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Lane lane && lane.path.equals(path);
    }

    @Override
    public int hashCode() {
        return path.hashCode();
    }

    @Override
    public String toString() {
        return path;
    }
}

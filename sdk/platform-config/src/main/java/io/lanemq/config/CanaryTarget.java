package io.lanemq.config;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Which clients a canary reaches: the named {@code instances}, and {@code percent} of the instances of each
 * application (of the named {@code applications} only, when some are named; all of their instances when no percentage
 * is given). Immutable.
 *
 * <p>A client decides for itself, from its own identity, so the platform needs no list of running instances: an
 * instance falls in the percentage when a SHA-256 of its application, its id and the canary's seed lands in the first
 * {@code percent} of 10,000 buckets. The same instance is chosen again after a restart (same pod name), and a canary
 * widened over the same base keeps the instances it had (a larger share of the same buckets), while the next change
 * (a new seed) picks others, so one unlucky instance does not take every canary. The share is a probability per
 * instance: an application with few instances may get none or more; name instances when it must be exact.
 */
public record CanaryTarget(List<String> instances, List<String> applications, int percent) {
    private static final int BUCKETS = 10_000;

    public CanaryTarget {
        instances = List.copyOf(instances);
        applications = List.copyOf(applications);
        if (percent < 0 || percent > 100) {
            throw new IllegalArgumentException("canary percent must be 0-100, was " + percent);
        }
        if (instances.isEmpty() && applications.isEmpty() && percent == 0) {
            throw new IllegalArgumentException("a canary must choose some clients: name instances or applications, or give a percent");
        }
        if (percent == 100 && applications.isEmpty()) {
            throw new IllegalArgumentException("a canary of 100% of every application is everyone: publish it instead");
        }
        instances.forEach(name -> requireName("instance", name));
        applications.forEach(name -> requireName("application", name));
    }

    private static void requireName(String what, String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a canary's " + what + " name is empty");
        }
    }

    /** The percentage that applies within the named applications: all of them when none was given. */
    private int share() {
        return percent == 0 && !applications.isEmpty() ? 100 : percent;
    }

    /** Whether {@code client} runs the candidate of a canary seeded with {@code seed}. */
    public boolean selects(ClientIdentity client, long seed) {
        Objects.requireNonNull(client, "client");
        if (instances.contains(client.instance())) {
            return true;
        }
        if (!applications.isEmpty() && !applications.contains(client.application())) {
            return false;
        }
        return bucket(client, seed) < share() * (BUCKETS / 100);
    }

    static int bucket(ClientIdentity client, long seed) {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
        byte[] digest = sha.digest((seed + "\n" + client.application() + "\n" + client.instance()).getBytes(StandardCharsets.UTF_8));
        return (int) Long.remainderUnsigned(ByteBuffer.wrap(digest).getLong(), BUCKETS);
    }

    /** {@code 10% of every application, instances [a, b]}, as the history and the tools show it. */
    public String describe() {
        List<String> parts = new ArrayList<>();
        if (percent > 0 || !applications.isEmpty()) {
            parts.add(share() + "% of " + (applications.isEmpty() ? "every application" : "applications " + applications));
        }
        if (!instances.isEmpty()) {
            parts.add("instances " + instances);
        }
        return String.join(", ", parts);
    }
}

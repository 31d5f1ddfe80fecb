package io.lanemq.testkit;

import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * An application account on brokers with access control on ({@link StackSpec.Builder#aclUser}): a normal user (not a
 * super user) allowed to publish and subscribe on its {@link #resources()} only, each a RocketMQ 5.3 ACL resource such
 * as {@code Topic:orders}, {@code Group:billing} or a prefix {@code Topic:acl-*}. Its {@link #toString()} hides the
 * secret.
 */
public record AclUser(String name, String secret, List<String> resources) {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");
    private static final Pattern RESOURCE = Pattern.compile("(Topic|Group):[A-Za-z0-9_%*.-]+");
    /** Short secrets are refused so that a test never passes on a trivially guessable one by accident. */
    private static final int MIN_SECRET = 8;

    public AclUser {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("ACL user name must match " + NAME + ": " + name);
        }
        Objects.requireNonNull(secret, "secret");
        if (secret.length() < MIN_SECRET) {
            throw new IllegalArgumentException("the secret of ACL user " + name + " must have at least " + MIN_SECRET
                + " characters");
        }
        resources = List.copyOf(resources);
        if (resources.isEmpty()) {
            throw new IllegalArgumentException("ACL user " + name + " needs at least one resource");
        }
        for (String resource : resources) {
            if (resource == null || !RESOURCE.matcher(resource).matches()) {
                throw new IllegalArgumentException("resource of ACL user " + name + " must match " + RESOURCE + ": "
                    + resource);
            }
        }
    }

    @Override
    public String toString() {
        return "AclUser[" + name + ", secret=(hidden), resources=" + resources + "]";
    }
}

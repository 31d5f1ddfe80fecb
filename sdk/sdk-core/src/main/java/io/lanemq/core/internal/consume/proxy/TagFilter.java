package io.lanemq.core.internal.consume.proxy;

import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A subscription's tag filter ({@code "*"} or {@code "paid || refunded"}) applied in the SDK: the
 * proxy pushes every message of the group, as RocketMQ would to a consumer that subscribed with
 * {@code "*"}, and a message whose tag does not match is acknowledged without reaching the listener.
 */
final class TagFilter {
    private final Set<String> tags;

    private TagFilter(Set<String> tags) {
        this.tags = tags;
    }

    static TagFilter parse(String expression) {
        String trimmed = expression.trim();
        if (trimmed.equals("*")) {
            return new TagFilter(Set.of());
        }
        return new TagFilter(Arrays.stream(trimmed.split("\\|\\|")).map(String::trim).filter(t -> !t.isEmpty())
                .collect(Collectors.toUnmodifiableSet()));
    }

    boolean matches(Optional<String> tag) {
        return tags.isEmpty() || tag.map(tags::contains).orElse(false);
    }
}

package io.lanemq.localstack;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/** One entry of {@link LaneMqTest#topics()}: {@code "topic"} or {@code "topic:group1,group2"}. */
record TopicSpec(String topic, Set<String> groups) {
    static TopicSpec parse(String spec, String testClass) {
        String[] parts = spec.split(":", 2);
        String topic = parts[0].strip();
        if (topic.isEmpty()) {
            throw new ExtensionConfigurationException("@LaneMqTest(topics) of " + testClass + ": '" + spec
                    + "' has no topic; write \"topic\" or \"topic:group1,group2\"");
        }
        Set<String> groups = new LinkedHashSet<>();
        if (parts.length == 2) {
            Arrays.stream(parts[1].split(",")).map(String::strip).filter(g -> !g.isEmpty()).forEach(groups::add);
        }
        return new TopicSpec(topic, java.util.Collections.unmodifiableSet(groups));
    }

    void declareOn(InMemoryPlatform platform) {
        platform.declare(topic, groups);
    }
}

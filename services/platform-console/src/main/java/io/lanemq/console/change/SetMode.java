package io.lanemq.console.change;

import io.lanemq.config.ConfigProblem;
import io.lanemq.config.ConsumerConfig;
import io.lanemq.config.ConsumptionMode;
import io.lanemq.config.InvalidPlatformConfigException;
import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.store.DocumentText;
import java.util.List;

/** Switches one consumer group of a logic topic between DIRECT and PROXY consumption; the SDK follows it live. */
public record SetMode(String topic, String group, ConsumptionMode mode) implements Change {
    @Override
    public String describe() {
        return "group " + group + " of " + topic + " to " + mode;
    }

    @Override
    public Scope scope() {
        return Scope.group(topic, group);
    }

    @Override
    public DocumentText applyTo(DocumentText document, PlatformConfig current) throws InvalidPlatformConfigException {
        LogicTopicConfig existing = PutTopic.existing(current, topic);
        ConsumerConfig settings = existing.consumerGroups().get(group);
        if (settings == null) {
            throw new InvalidPlatformConfigException(describe(), List.of(new ConfigProblem(
                    "/topics/" + Configs.escape(topic) + "/consumerGroups/" + Configs.escape(group), "no such consumer group")));
        }
        return settings.mode() == mode ? document : document.with(Configs.topic(topic, "consumerGroups", group, "mode"), mode);
    }
}

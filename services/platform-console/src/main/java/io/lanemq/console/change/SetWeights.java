package io.lanemq.console.change;

import io.lanemq.config.InvalidPlatformConfigException;
import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.TopicRoute;
import io.lanemq.config.store.DocumentText;
import java.util.Map;
import java.util.TreeMap;

/** One logic topic's send weights, by cluster; a cluster not named keeps its weight. */
public record SetWeights(String topic, Map<String, Integer> weightByCluster) implements Change {
    public SetWeights {
        weightByCluster = Map.copyOf(weightByCluster);
    }

    @Override
    public String describe() {
        return "weights of " + topic + " " + new TreeMap<>(weightByCluster);
    }

    @Override
    public Scope scope() {
        return Scope.topic(topic);
    }

    @Override
    public DocumentText applyTo(DocumentText document, PlatformConfig current) throws InvalidPlatformConfigException {
        LogicTopicConfig existing = PutTopic.existing(current, topic);
        return Configs.reweighted(document, existing, i -> {
            TopicRoute route = existing.routes().get(i);
            return weightByCluster.getOrDefault(route.cluster(), route.weight());
        });
    }
}

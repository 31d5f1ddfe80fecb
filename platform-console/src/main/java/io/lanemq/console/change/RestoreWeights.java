package io.lanemq.console.change;

import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.TopicRoute;

/**
 * Undoes a drain: every route's weight goes back to what it was in {@code before} (the snapshot the drain was applied
 * to). Only weights: topics, groups and settings changed since the drain stay as they are now; a route or topic that
 * did not exist then keeps its current weight.
 *
 * @param undone what is undone, for the history ({@code drain idc-b at revision 42})
 */
public record RestoreWeights(String undone, PlatformConfig before) implements Change {
    @Override
    public String describe() {
        return "undo " + undone;
    }

    @Override
    public Scope scope() {
        return Scope.operator();
    }

    @Override
    public PlatformConfig.Builder applyTo(PlatformConfig current) {
        PlatformConfig.Builder draft = Configs.toBuilder(current);
        for (LogicTopicConfig topic : current.topics().values()) {
            before.topic(topic.name()).ifPresent(old -> draft.topic(Configs.reweighted(topic, i -> {
                TopicRoute route = topic.routes().get(i);
                return old.route(route.cluster()).map(TopicRoute::weight).orElse(route.weight());
            })));
        }
        return draft;
    }
}

package io.lanemq.console.change;

import io.lanemq.config.InvalidPlatformConfigException;
import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.TopicRoute;
import io.lanemq.config.store.DocumentText;
import java.util.List;

/**
 * Undoes a drain: every route's weight goes back to what it was in {@code before} (the document the drain was applied
 * to). Only weights: topics, groups and settings changed since the drain stay as they are now; a route or topic that
 * did not exist then keeps its current weight. A weight the document before left unset (the default) is unset again,
 * so undoing a drain gives back the text from before it when nothing else changed since.
 *
 * @param undone what is undone, for the history ({@code drain idc-b at revision 42})
 * @param before the document the drain was applied to
 */
public record RestoreWeights(String undone, String before) implements Change {
    @Override
    public String describe() {
        return "undo " + undone;
    }

    @Override
    public Scope scope() {
        return Scope.operator();
    }

    @Override
    public DocumentText applyTo(DocumentText document, PlatformConfig current) throws InvalidPlatformConfigException {
        PlatformConfig then = Configs.parse(before, describe() + " (the document before)");
        DocumentText thenText = DocumentText.of(before);
        DocumentText draft = document;
        for (LogicTopicConfig topic : current.topics().values()) {
            LogicTopicConfig old = then.topic(topic.name()).orElse(null);
            if (old == null) {
                continue;
            }
            for (int i = 0; i < topic.routes().size(); i++) {
                TopicRoute route = topic.routes().get(i);
                int at = old.routes().indexOf(old.route(route.cluster()).orElse(null));
                if (at < 0 || old.routes().get(at).weight() == route.weight()) {
                    continue;
                }
                List<Object> weight = Configs.route(topic.name(), i, "weight");
                draft = thenText.has(Configs.route(topic.name(), at, "weight")) ? draft.with(weight, old.routes().get(at).weight())
                        : draft.without(weight);
            }
        }
        return draft;
    }
}

package io.lanemq.console.change;

import io.lanemq.config.InvalidPlatformConfigException;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.TopicRoute;
import io.lanemq.config.store.DocumentText;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Undoes a drain: every route's weight (an environment's own routes' too) goes back to what it was in {@code before} (the document the drain was applied
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
        Map<List<Object>, Configs.RouteSet> then = new HashMap<>();
        Configs.routeSets(before, describe() + " (the document before)").forEach(set -> then.put(set.topicPath(), set));
        DocumentText thenText = DocumentText.of(before);
        DocumentText draft = document;
        // An environment's own routes are restored as the top level's are: a drain moved them too.
        for (Configs.RouteSet set : Configs.routeSets(document.text(), describe())) {
            Configs.RouteSet old = then.get(set.topicPath());
            if (old == null) {
                continue;
            }
            List<TopicRoute> oldRoutes = old.topic().routes();
            for (int i = 0; i < set.topic().routes().size(); i++) {
                TopicRoute route = set.topic().routes().get(i);
                int at = oldRoutes.indexOf(old.topic().route(route.cluster()).orElse(null));
                if (at < 0 || oldRoutes.get(at).weight() == route.weight()) {
                    continue;
                }
                draft = thenText.has(old.weight(at)) ? draft.with(set.weight(i), oldRoutes.get(at).weight()) : draft.without(set.weight(i));
            }
        }
        return draft;
    }
}

package io.lanemq.config.store;

import com.github.difflib.DiffUtils;
import com.github.difflib.UnifiedDiffUtils;
import com.github.difflib.patch.Patch;
import java.util.List;

/**
 * The unified line diff between two documents, as the console's preview and history and the config tool's diff show
 * it. Needs java-diff-utils, an optional dependency of this module: the tools that show diffs declare it.
 */
public final class YamlDiff {
    private static final int CONTEXT_LINES = 3;

    private YamlDiff() {
    }

    /** Empty when the documents are the same; {@code before} may be null (no document yet). */
    public static String between(String before, String after, String beforeName, String afterName) {
        List<String> original = before == null ? List.of() : before.lines().toList();
        List<String> revised = after.lines().toList();
        Patch<String> patch = DiffUtils.diff(original, revised);
        if (patch.getDeltas().isEmpty()) {
            return "";
        }
        return String.join("\n", UnifiedDiffUtils.generateUnifiedDiff(beforeName, afterName, original, patch, CONTEXT_LINES));
    }
}

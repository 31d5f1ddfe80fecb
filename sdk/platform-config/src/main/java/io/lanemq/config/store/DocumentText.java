package io.lanemq.config.store;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.nodes.CollectionNode;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * A platform document's text, edited in place: each edit replaces or inserts the fewest characters, located by the
 * positions SnakeYAML's composer gives every node, so everything an edit does not touch stays byte for byte (comments,
 * key order, flow or block style, quoting, the {@code environments} section, defaults left unset). Immutable: each
 * edit returns a new value. Paths are keys ({@code String}) and sequence indexes ({@code Integer}) from the root.
 *
 * <p>Why text edits and not a comment-keeping node tree: SnakeYAML can keep comments in its tree, but dumping the tree
 * again re-flows the document (indentation, spacing inside flow collections, quoting, line width), so an untouched
 * line could still change; Jackson's tree drops comments. Editing the text at the parser's marks changes nothing
 * the edit does not name, and a document that a person wrote stays theirs.
 *
 * <p>New values are written in the style of where they go: a flow value ({@code { mode: PROXY }}) inside a flow
 * collection or on one line, a block of lines at the siblings' indentation in a block mapping, JSON quoting in a JSON
 * document.
 */
public final class DocumentText {
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z_][A-Za-z0-9_.\\-]*");
    private static final Pattern RESERVED = Pattern.compile("(?i)true|false|null|yes|no|on|off|y|n|~|\\.inf|\\.nan");
    private static final int INDENT = 2;

    private final String text;
    private final MappingNode root;
    private final boolean json;

    private DocumentText(String text) {
        Node node = new Yaml(new LoaderOptions()).compose(new StringReader(text));
        if (!(node instanceof MappingNode mapping)) {
            throw new IllegalArgumentException("the document is not a mapping of keys, so it cannot be edited in place");
        }
        this.text = text;
        this.root = mapping;
        this.json = mapping.getFlowStyle() == DumperOptions.FlowStyle.FLOW;
    }

    /**
     * @throws IllegalArgumentException the text is not a YAML mapping
     * @throws org.yaml.snakeyaml.error.YAMLException the text is not YAML
     */
    public static DocumentText of(String text) {
        return new DocumentText(text);
    }

    public String text() {
        return text;
    }

    /** Whether the document names {@code path} (a key with an empty value counts). */
    public boolean has(List<Object> path) {
        return find(path).isPresent();
    }

    /**
     * The document with {@code value} at {@code path}: a scalar ({@code String}, number, boolean, enum) replaces the
     * scalar there in its place; a {@code Map} is merged key by key into the mapping there; keys missing along the
     * path are added to the deepest mapping that exists, after its last entry.
     */
    public DocumentText with(List<Object> path, Object value) {
        Optional<Node> found = find(path);
        if (found.isPresent()) {
            Node node = found.get();
            if (value instanceof Map<?, ?> map && node instanceof MappingNode) {
                DocumentText edited = this;
                for (Map.Entry<?, ?> e : map.entrySet()) {
                    edited = edited.with(append(path, e.getKey()), e.getValue());
                }
                return edited;
            }
            if (isNull(node)) {
                return splice(start(node), end(node), " " + flow(value));
            }
            if (node instanceof ScalarNode || isFlow(node)) {
                String rendered = flow(value);
                return rendered.equals(slice(node)) ? this : splice(start(node), end(node), rendered);
            }
            throw new IllegalArgumentException("cannot replace the block collection at " + path + " in place");
        }
        int depth = path.size() - 1;
        while (depth > 0 && find(path.subList(0, depth)).isEmpty()) {
            depth--;
        }
        Object nested = value;
        for (int i = path.size() - 1; i > depth; i--) {
            nested = Map.of(String.valueOf(path.get(i)), nested);
        }
        Node parent = depth == 0 ? root : find(path.subList(0, depth)).orElseThrow();
        String key = String.valueOf(path.get(depth));
        if (isNull(parent)) {
            return splice(start(parent), end(parent), " " + flow(Map.of(key, nested)));
        }
        if (!(parent instanceof MappingNode mapping)) {
            throw new IllegalArgumentException(path.subList(0, depth) + " is not a mapping, so it cannot take key " + key);
        }
        return insertEntry(mapping, key, nested);
    }

    /** The document with {@code item} added after the last item of the sequence at {@code path}. */
    public DocumentText appended(List<Object> path, Object item) {
        Node node = find(path).orElseThrow(() -> new IllegalArgumentException("no sequence at " + path));
        if (!(node instanceof SequenceNode sequence)) {
            throw new IllegalArgumentException(path + " is not a sequence");
        }
        List<Node> items = sequence.getValue();
        if (items.isEmpty()) {
            return splice(start(node), end(node), "[" + flow(item) + "]");
        }
        Node last = items.get(items.size() - 1);
        if (isFlow(sequence)) {
            return splice(contentEnd(last), contentEnd(last), ", " + flow(item));
        }
        int at = lineEnd(contentEnd(last));
        String indent = " ".repeat(dashColumn(last));
        return splice(at, at, lineBreakBefore(at) + indent + "- " + flow(item) + "\n");
    }

    /** The document without the mapping entry or sequence item at {@code path}; the same document when it has none. */
    public DocumentText without(List<Object> path) {
        if (path.isEmpty() || find(path).isEmpty()) {
            return this;
        }
        if (path.size() == 1 && root.getValue().size() == 1) {
            throw new IllegalArgumentException("cannot remove the document's only key " + path.get(0));
        }
        List<Object> parentPath = path.subList(0, path.size() - 1);
        CollectionNode<?> parent = (CollectionNode<?>) (parentPath.isEmpty() ? root : find(parentPath).orElseThrow());
        List<int[]> spans = spans(parent);
        int index = indexIn(parent, path.get(path.size() - 1));
        int[] span = spans.get(index);
        if (isFlow(parent)) {
            if (spans.size() == 1) {
                return splice(start(parent), end(parent), parent instanceof MappingNode ? "{}" : "[]");
            }
            return index + 1 < spans.size() ? splice(span[0], spans.get(index + 1)[0], "")
                    : splice(spans.get(index - 1)[1], span[1], "");
        }
        int from = lineStart(parent instanceof SequenceNode ? dashIndex(((SequenceNode) parent).getValue().get(index)) : span[0]);
        if (!text.substring(from, parent instanceof SequenceNode ? from : span[0]).isBlank()) {
            throw new IllegalArgumentException("cannot remove " + path + " in place: it shares its line with what comes before it");
        }
        int to = lineEnd(span[1]);
        if (spans.size() > 1) {
            return splice(from, to, "");
        }
        // The only entry: the collection becomes an empty flow one, so its key keeps a value of the same kind.
        int colon = text.indexOf(':', end(keyOf(parentPath)));
        String empty = parent instanceof MappingNode ? " {}" : " []";
        return splice(from, to, "").splice(colon + 1, colon + 1, empty);
    }

    private DocumentText insertEntry(MappingNode mapping, String key, Object value) {
        List<NodeTuple> entries = mapping.getValue();
        if (isFlow(mapping)) {
            String entry = flowKey(key) + ": " + flow(value);
            if (entries.isEmpty()) {
                return splice(start(mapping), end(mapping), "{ " + entry + " }");
            }
            int at = contentEnd(entries.get(entries.size() - 1).getValueNode());
            return splice(at, at, ", " + entry);
        }
        NodeTuple last = entries.get(entries.size() - 1);
        int column = last.getKeyNode().getStartMark().getColumn();
        int at = lineEnd(contentEnd(last.getValueNode()));
        return splice(at, at, lineBreakBefore(at) + block(key, value, column));
    }

    /** {@code key: value} as lines at {@code column}: maps of collections as blocks, lists as one flow item a line. */
    private String block(String key, Object value, int column) {
        String indent = " ".repeat(column);
        if (value instanceof Map<?, ?> map && map.values().stream().anyMatch(v -> v instanceof Map || v instanceof List)) {
            StringBuilder lines = new StringBuilder(indent + flowKey(key) + ":\n");
            map.forEach((k, v) -> lines.append(block(String.valueOf(k), v, column + INDENT)));
            return lines.toString();
        }
        if (value instanceof List<?> list && !list.isEmpty()) {
            StringBuilder lines = new StringBuilder(indent + flowKey(key) + ":\n");
            list.forEach(item -> lines.append(indent).append(" ".repeat(INDENT)).append("- ").append(flow(item)).append('\n'));
            return lines.toString();
        }
        return indent + flowKey(key) + ": " + flow(value) + "\n";
    }

    /** One value on one line: {@code { cluster: a, weight: 1 }}, {@code [x, y]}, a scalar quoted only when it must be. */
    private String flow(Object value) {
        if (value instanceof Map<?, ?> map) {
            if (map.isEmpty()) {
                return "{}";
            }
            List<String> entries = new ArrayList<>();
            map.forEach((k, v) -> entries.add(flowKey(String.valueOf(k)) + ": " + flow(v)));
            return json ? "{" + String.join(", ", entries) + "}" : "{ " + String.join(", ", entries) + " }";
        }
        if (value instanceof List<?> list) {
            List<String> items = new ArrayList<>();
            list.forEach(item -> items.add(flow(item)));
            return "[" + String.join(", ", items) + "]";
        }
        if (value instanceof Number || value instanceof Boolean) {
            return value.toString();
        }
        String string = value instanceof Enum<?> e ? e.name() : String.valueOf(value);
        return json || !PLAIN.matcher(string).matches() || RESERVED.matcher(string).matches() ? quoted(string) : string;
    }

    private String flowKey(String key) {
        return flow(key);
    }

    private static String quoted(String string) {
        StringBuilder quoted = new StringBuilder("\"");
        for (char c : string.toCharArray()) {
            switch (c) {
                case '"' -> quoted.append("\\\"");
                case '\\' -> quoted.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        quoted.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        quoted.append(c);
                    }
                }
            }
        }
        return quoted.append('"').toString();
    }

    private Optional<Node> find(List<Object> path) {
        Node node = root;
        for (Object step : path) {
            node = child(node, step);
            if (node == null) {
                return Optional.empty();
            }
        }
        return Optional.of(node);
    }

    private static Node child(Node node, Object step) {
        if (node instanceof MappingNode mapping) {
            for (NodeTuple entry : mapping.getValue()) {
                if (entry.getKeyNode() instanceof ScalarNode key && key.getValue().equals(String.valueOf(step))) {
                    return entry.getValueNode();
                }
            }
        } else if (node instanceof SequenceNode sequence && step instanceof Integer index
                && index >= 0 && index < sequence.getValue().size()) {
            return sequence.getValue().get(index);
        }
        return null;
    }

    private Node keyOf(List<Object> path) {
        Node parent = path.size() == 1 ? root : find(path.subList(0, path.size() - 1)).orElseThrow();
        for (NodeTuple entry : ((MappingNode) parent).getValue()) {
            if (entry.getKeyNode() instanceof ScalarNode key && key.getValue().equals(String.valueOf(path.get(path.size() - 1)))) {
                return key;
            }
        }
        throw new IllegalArgumentException("no key at " + path);
    }

    private int indexIn(CollectionNode<?> parent, Object step) {
        if (parent instanceof SequenceNode) {
            return (Integer) step;
        }
        List<NodeTuple> entries = ((MappingNode) parent).getValue();
        for (int i = 0; i < entries.size(); i++) {
            if (entries.get(i).getKeyNode() instanceof ScalarNode key && key.getValue().equals(String.valueOf(step))) {
                return i;
            }
        }
        throw new IllegalArgumentException("no key " + step);
    }

    /** Each entry's text from its key (or item) start to its content's end. */
    private List<int[]> spans(CollectionNode<?> parent) {
        List<int[]> spans = new ArrayList<>();
        if (parent instanceof MappingNode mapping) {
            mapping.getValue().forEach(e -> spans.add(new int[] {start(e.getKeyNode()), contentEnd(e.getValueNode())}));
        } else {
            ((SequenceNode) parent).getValue().forEach(item -> spans.add(new int[] {start(item), contentEnd(item)}));
        }
        return spans;
    }

    /** Where the node's own text ends: a block collection's end mark is the next token, past comments and blank lines. */
    private int contentEnd(Node node) {
        if (node instanceof MappingNode mapping && !isFlow(node) && !mapping.getValue().isEmpty()) {
            return contentEnd(mapping.getValue().get(mapping.getValue().size() - 1).getValueNode());
        }
        if (node instanceof SequenceNode sequence && !isFlow(node) && !sequence.getValue().isEmpty()) {
            return contentEnd(sequence.getValue().get(sequence.getValue().size() - 1));
        }
        return end(node);
    }

    private int dashIndex(Node item) {
        int dash = text.lastIndexOf('-', start(item));
        if (dash < lineStart(start(item))) {
            throw new IllegalArgumentException("a block sequence item without its '-' on its first line: line "
                    + (item.getStartMark().getLine() + 1));
        }
        return dash;
    }

    private int dashColumn(Node item) {
        int dash = dashIndex(item);
        return dash - lineStart(dash);
    }

    private int lineStart(int index) {
        return text.lastIndexOf('\n', index - 1) + 1;
    }

    /** Where the line after the one holding {@code index} starts (past a comment on it), or the text's length. */
    private int lineEnd(int index) {
        int end = text.indexOf('\n', index);
        return end < 0 ? text.length() : end + 1;
    }

    private String lineBreakBefore(int at) {
        return at > 0 && text.charAt(at - 1) != '\n' ? "\n" : "";
    }

    private static boolean isNull(Node node) {
        return node instanceof ScalarNode scalar && scalar.getTag().equals(Tag.NULL) && scalar.getValue().isEmpty();
    }

    private static boolean isFlow(Node node) {
        return node instanceof CollectionNode<?> collection && collection.getFlowStyle() == DumperOptions.FlowStyle.FLOW;
    }

    private String slice(Node node) {
        return text.substring(start(node), end(node));
    }

    /** SnakeYAML counts code points; a document with characters beyond the BMP would shift a char index. */
    private int start(Node node) {
        return text.offsetByCodePoints(0, node.getStartMark().getIndex());
    }

    private int end(Node node) {
        return text.offsetByCodePoints(0, node.getEndMark().getIndex());
    }

    private DocumentText splice(int from, int to, String replacement) {
        return new DocumentText(text.substring(0, from) + replacement + text.substring(to));
    }

    private static List<Object> append(List<Object> path, Object step) {
        List<Object> longer = new ArrayList<>(path);
        longer.add(step);
        return longer;
    }
}

package io.lanemq.config;

/**
 * One thing wrong with a configuration.
 *
 * @param pointer where, as a JSON pointer ({@code /topics/order-paid/routes/1/weight})
 * @param message what is wrong
 * @param line    the source line, or 0 when unknown (configuration built in code)
 */
public record ConfigProblem(String pointer, String message, int line) {
    public ConfigProblem(String pointer, String message) {
        this(pointer, message, 0);
    }

    ConfigProblem atLine(int sourceLine) {
        return new ConfigProblem(pointer, message, sourceLine);
    }

    /** The key in the dotted form operators write: {@code topics.order-paid.routes[1].weight}. */
    public String key() {
        StringBuilder key = new StringBuilder();
        for (String part : pointer.split("/")) {
            if (part.isEmpty()) {
                continue;
            }
            String unescaped = part.replace("~1", "/").replace("~0", "~");
            if (unescaped.chars().allMatch(Character::isDigit)) {
                key.append('[').append(unescaped).append(']');
            } else {
                key.append(key.length() == 0 ? "" : ".").append(unescaped);
            }
        }
        return key.length() == 0 ? "(root)" : key.toString();
    }

    @Override
    public String toString() {
        return key() + (line > 0 ? " (line " + line + ")" : "") + ": " + message;
    }
}

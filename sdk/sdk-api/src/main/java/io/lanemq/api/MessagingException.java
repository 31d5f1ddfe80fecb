package io.lanemq.api;

/**
 * The one checked exception of the SDK. Its message always ends with the context it happened in,
 * {@code [logicTopic=..., cluster=...]}, so a log line alone says where to look.
 * Subclasses say what kind of problem it is: {@link InvalidMessageException},
 * {@link UnknownTopicException}, {@link SendFailedException}, {@link InvalidConfigurationException}.
 */
public class MessagingException extends Exception {
    private final String reason;
    private final String logicTopic;
    private final String cluster;

    public MessagingException(String reason, String logicTopic, String cluster, Throwable cause) {
        super(withContext(reason, logicTopic, cluster), cause);
        this.reason = reason;
        this.logicTopic = logicTopic;
        this.cluster = cluster;
    }

    public MessagingException(String reason, String logicTopic, String cluster) {
        this(reason, logicTopic, cluster, null);
    }

    /** What went wrong, without the context suffix. */
    public String reason() {
        return reason;
    }

    /** The logic topic involved, or null when none was. */
    public String logicTopic() {
        return logicTopic;
    }

    /** The cluster involved, or null when the problem arose before a cluster was chosen. */
    public String cluster() {
        return cluster;
    }

    private static String withContext(String reason, String logicTopic, String cluster) {
        StringBuilder text = new StringBuilder(reason);
        if (logicTopic != null || cluster != null) {
            text.append(" [");
            if (logicTopic != null) {
                text.append("logicTopic=").append(logicTopic);
            }
            if (cluster != null) {
                text.append(logicTopic != null ? ", " : "").append("cluster=").append(cluster);
            }
            text.append(']');
        }
        return text.toString();
    }
}

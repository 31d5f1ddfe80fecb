package io.lanemq.rocketmq;

import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.api.InvalidMessageException;
import io.lanemq.api.MessagingException;
import io.lanemq.api.SendFailedException;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.remoting.exception.RemotingException;
import org.apache.rocketmq.remoting.protocol.ResponseCode;

/**
 * The one place that turns RocketMQ's exceptions into the SDK's. This layer knows the cluster and
 * the physical topic but not the logic topic, so {@code logicTopic} is null and the core adds it.
 *
 * <p>A message RocketMQ refuses for its content ({@link ResponseCode#MESSAGE_ILLEGAL}: body too large,
 * bad topic name, properties too long), whether the client's validator or the broker said so,
 * becomes an {@link InvalidMessageException}: another cluster would refuse it too, so the core
 * must not retry it elsewhere. Everything else is a {@link SendFailedException}. RocketMQ often
 * wraps the real cause ({@code sendMessageInTransaction} wraps every send failure in a
 * code-less {@link MQClientException}), so the whole cause chain is searched.
 */
final class RocketMqErrors {
    private RocketMqErrors() {
    }

    /** Maps a failed send of {@code topic} on {@code cluster}; restores the interrupt flag when interrupted. */
    static MessagingException sendFailed(Throwable error, String cluster, String topic) {
        if (error instanceof MessagingException mapped) {
            return mapped;
        }
        if (error instanceof InterruptedException) {
            Thread.currentThread().interrupt();
            return new SendFailedException("interrupted while sending to topic " + topic, null, cluster, error);
        }
        String denied = accessRefusal(error);
        if (denied != null) {
            return new SendFailedException("send to topic " + topic + " failed: " + deniedBy(cluster, denied), null,
                    cluster, error);
        }
        String refusal = contentRefusal(error);
        if (refusal != null) {
            return new InvalidMessageException("RocketMQ refused the message for topic " + topic + " on cluster "
                    + cluster + ": " + refusal, null);
        }
        return new SendFailedException("send to topic " + topic + " failed: " + describe(error), null, cluster, error);
    }

    /** Maps a producer or consumer that could not start, e.g. an invalid group name or subscription expression. */
    static MessagingException startFailed(Throwable error, String what, String cluster) {
        if (error instanceof InterruptedException) {
            Thread.currentThread().interrupt();
        }
        String denied = accessRefusal(error);
        if (denied != null) {
            // Refused keys are a configuration error: retrying soon will not cure them (the core retries slowly).
            return new InvalidConfigurationException("cannot start RocketMQ " + what + ": " + deniedBy(cluster, denied)
                    + " [cluster=" + cluster + "]", error);
        }
        return new MessagingException("cannot start RocketMQ " + what + ": " + describeWithAccess(error, cluster), null,
                cluster, error);
    }

    /** Maps a failed call of a raw client (a reader's seek, an admin's topic creation) that is not a send. */
    static MessagingException callFailed(Throwable error, String what, String cluster) {
        if (error instanceof InterruptedException) {
            Thread.currentThread().interrupt();
        }
        return new MessagingException(what + ": " + describeWithAccess(error, cluster), null, cluster, error);
    }

    private static String describeWithAccess(Throwable error, String cluster) {
        String denied = accessRefusal(error);
        return denied == null ? describe(error) : deniedBy(cluster, denied);
    }

    /**
     * What a secured broker said when it refused the client: RocketMQ 5.3's authentication and authorization pipelines
     * answer every refusal with {@link ResponseCode#NO_PERMISSION} and the reason (a wrong signature, an unknown
     * user, a missing right), the same code an open broker gives for a topic without write permission.
     */
    private static String accessRefusal(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof MQClientException client && client.getResponseCode() == ResponseCode.NO_PERMISSION) {
                return client.getErrorMessage();
            }
            if (cause instanceof MQBrokerException broker && broker.getResponseCode() == ResponseCode.NO_PERMISSION) {
                return broker.getErrorMessage();
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return null;
    }

    private static String deniedBy(String cluster, String reason) {
        return "cluster '" + cluster + "' refused the request: authentication or authorization failed (NO_PERMISSION: "
                + firstLine(String.valueOf(reason)) + "); check the credentials configured for this cluster and their "
                + "rights on its brokers";
    }

    /** The reason RocketMQ gave for refusing the content, or null when the failure is not about content. */
    private static String contentRefusal(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof MQClientException client && client.getResponseCode() == ResponseCode.MESSAGE_ILLEGAL) {
                return client.getErrorMessage();
            }
            if (cause instanceof MQBrokerException broker && broker.getResponseCode() == ResponseCode.MESSAGE_ILLEGAL) {
                return broker.getErrorMessage();
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return null;
    }

    /** A one-line description; RocketMQ's own messages append a multi-line FAQ link, which is dropped. */
    static String describe(Throwable error) {
        Throwable innermost = error;
        while (innermost.getCause() != null && innermost.getCause() != innermost) {
            innermost = innermost.getCause();
        }
        String text;
        if (error instanceof MQClientException client) {
            text = "code " + client.getResponseCode() + ", " + client.getErrorMessage();
        } else if (error instanceof MQBrokerException broker) {
            text = "broker " + broker.getBrokerAddr() + " answered code " + broker.getResponseCode() + ", " + broker.getErrorMessage();
        } else if (error instanceof RemotingException) {
            text = error.getClass().getSimpleName() + ": " + error.getMessage();
        } else {
            text = String.valueOf(error);
        }
        if (innermost != error) {
            text += " (cause: " + firstLine(String.valueOf(innermost)) + ")";
        }
        return firstLine(text);
    }

    private static String firstLine(String text) {
        int newline = text.indexOf('\n');
        return (newline < 0 ? text : text.substring(0, newline)).strip();
    }
}

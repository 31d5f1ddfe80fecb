package io.lanemq.core.internal.consume.proxy;

import io.lanemq.api.Subscription;
import java.nio.file.Path;
import java.util.List;

/**
 * Everything a PROXY-mode consumer runs with; two equal specs mean nothing to restart.
 *
 * @param subscription  what the application subscribed
 * @param threads       listener threads (ConsumerConfig.threads)
 * @param endpoints     the proxy instances, {@code host:port}
 * @param caCertificate PEM file the proxy's TLS certificate must chain to
 * @param application   the authenticated application name
 * @param token         the application's secret; never printed
 * @param lane          the lane this instance runs in, as Subscribe.lane names it ("" for the base)
 */
public record ProxyConsumerSpec(Subscription subscription, int threads, List<String> endpoints, Path caCertificate,
                                String application, String token, String lane) {
    public ProxyConsumerSpec {
        endpoints = List.copyOf(endpoints);
        if (endpoints.isEmpty()) {
            throw new IllegalArgumentException("no consumer proxy endpoint for " + subscription);
        }
    }

    String logicTopic() {
        return subscription.logicTopic();
    }

    String group() {
        return subscription.consumerGroup();
    }

    /**
     * Deliveries the proxy may push ahead of the listener: enough to keep every thread busy while a
     * batch of acks travels and the deliveries its credits make room for come back in one frame.
     */
    int credits() {
        return threads * 8;
    }

    /** Acks per frame at most: a quarter of the credits, so three quarters stay at work while a batch travels. */
    int ackBatch() {
        return Math.max(1, credits() / 4);
    }

    @Override
    public String toString() {
        return "ProxyConsumerSpec[" + subscription + ", threads=" + threads + ", endpoints=" + endpoints
                + ", caCertificate=" + caCertificate + ", application=" + application
                + (lane.isEmpty() ? "" : ", lane=" + lane) + "]";
    }
}

package io.lanemq.core.internal.consume;

import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.api.MessagingException;
import io.lanemq.api.Subscription;
import io.lanemq.api.UnknownTopicException;
import io.lanemq.api.spi.BoundConsumerSpec;
import io.lanemq.config.ConsumerConfig;
import io.lanemq.config.ConsumptionMode;
import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.ConsumerProxyConfig;
import io.lanemq.core.internal.consume.proxy.ProxyConsumerSpec;
import io.lanemq.core.internal.consume.proxy.ProxyIdentity;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a configuration snapshot asks of one subscription: DIRECT consumer specs by cluster, or one
 * PROXY consumer spec. Building it is also the check a reload must pass for a running consumer.
 */
record ConsumptionPlan(Map<String, BoundConsumerSpec> direct, ProxyConsumerSpec proxy) {
    private static final Logger log = LoggerFactory.getLogger(ConsumptionPlan.class);

    ConsumptionMode mode() {
        return proxy != null ? ConsumptionMode.PROXY : ConsumptionMode.DIRECT;
    }

    /**
     * @throws UnknownTopicException         the topic, or the group on it, is not configured
     * @throws InvalidConfigurationException the group is in PROXY mode and this client cannot follow it (no token,
     *                                       no CA file)
     */
    static ConsumptionPlan of(Subscription subscription, PlatformConfig config, ProxyIdentity identity,
                              Optional<LaneMembership> lanes) throws MessagingException {
        String logicTopic = subscription.logicTopic();
        LogicTopicConfig topic = config.consumedTopic(logicTopic, subscription.consumerGroup());
        ConsumerConfig settings = topic.consumerGroups().get(subscription.consumerGroup());
        if (settings.mode() == ConsumptionMode.PROXY) {
            if (subscription.maxDeliveryAttempts().isPresent()) {
                // Not an error: the platform may move the group to PROXY mode while it runs; the setting returns with DIRECT.
                log.warn("{} asks for maxDeliveryAttempts {}, but its group is in PROXY mode, where the consumer proxy"
                        + " retries with the group's own setting ({})", subscription, subscription.maxDeliveryAttempts().getAsInt(),
                        settings.maxDeliveryAttempts());
            }
            // The proxy routes lanes itself (it knows each consumer's lane from its Subscribe): no member tag, no forwarding.
            return new ConsumptionPlan(null, proxySpec(subscription, config.proxy(), settings, identity,
                    lanes.map(LaneMembership::proxyLane).orElse("")));
        }
        return new ConsumptionPlan(DirectConsumption.plan(subscription, topic, settings, config,
                lanes.map(LaneMembership::memberTag)), null);
    }

    private static ProxyConsumerSpec proxySpec(Subscription subscription, ConsumerProxyConfig proxy, ConsumerConfig settings,
                                               ProxyIdentity identity, String lane) throws InvalidConfigurationException {
        String group = "consumer group '" + subscription.consumerGroup() + "' of logic topic '" + subscription.logicTopic() + "'";
        if (!proxy.configured() || proxy.caCertificate().isEmpty()) {
            throw new InvalidConfigurationException(group + " is in PROXY mode, but the platform configuration's proxy section"
                    + " has no endpoints or no caCertificate");
        }
        String token = identity.token().orElseThrow(() -> new InvalidConfigurationException(group + " is in PROXY mode, which"
                + " authenticates application '" + identity.application() + "' with its token; this client has none"
                + " (ClientOptions.proxyToken)"));
        Path ca = proxy.caCertificate().get();
        if (!Files.isReadable(ca)) {
            // Checked before switching, so a reload naming a missing file is rejected and the running consumer stays as it is.
            throw new InvalidConfigurationException("proxy.caCertificate: " + ca + " is not a readable file; " + group
                    + " is in PROXY mode and needs it to check the proxy's TLS certificate");
        }
        // One proxy stream feeds one pool for all clusters: the total is the pool's size.
        return new ProxyConsumerSpec(subscription, subscription.threads().orElse(settings.threads()), proxy.endpoints(), ca,
                identity.application(), token, lane);
    }
}

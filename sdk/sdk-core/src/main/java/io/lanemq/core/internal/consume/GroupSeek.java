package io.lanemq.core.internal.consume;

import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.api.MessagingException;
import io.lanemq.api.SeekResult;
import io.lanemq.api.UnknownTopicException;
import io.lanemq.api.spi.BoundOffsetReset;
import io.lanemq.api.spi.MessagingBinding;
import io.lanemq.config.ConsumptionMode;
import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.TopicRoute;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A consumer group moved to a time, or to the end, on every cluster of its logic topic (the route's physical topic;
 * stress-test shadow topics keep their offsets). The clusters are reset one after another; one that fails is reported
 * in the result and does not stop the others, so a seek during an IDC outage moves the healthy IDC and says which to
 * seek again.
 */
public final class GroupSeek {
    private static final Logger log = LoggerFactory.getLogger(GroupSeek.class);

    private GroupSeek() {
    }

    /**
     * @throws UnknownTopicException the topic, or the group on it, is not configured
     * @throws MessagingException    no cluster could be reset (the first failure, the others suppressed)
     */
    public static SeekResult seek(PlatformConfig config, MessagingBinding binding, String logicTopic, String group,
                                  Optional<Instant> to) throws MessagingException {
        LogicTopicConfig topic = config.consumedTopic(logicTopic, group);
        if (topic.consumerGroups().get(group).mode() == ConsumptionMode.PROXY) {
            // The proxy's readers (RocketMQ's lite pull consumer) ignore a broker's reset and commit their own offsets over it.
            throw new InvalidConfigurationException("consumer group '" + group + "' of logic topic " + logicTopic
                    + " is in PROXY mode, which seek does not support yet: the consumer proxy would keep its own offsets;"
                    + " switch the group to DIRECT mode for the seek");
        }
        long timestamp = to.map(Instant::toEpochMilli).orElse(MessagingBinding.LATEST);
        String physicalGroup = config.physicalGroup(group);
        List<SeekResult.Cluster> clusters = new ArrayList<>();
        List<MessagingException> failures = new ArrayList<>();
        for (TopicRoute route : topic.routes()) {
            try {
                BoundOffsetReset reset = binding.resetOffsets(config.cluster(route.cluster()).endpoint(), physicalGroup,
                        route.physicalTopic(), timestamp);
                clusters.add(new SeekResult.Cluster(route.cluster(), route.physicalTopic(), reset.queues(), reset.membersTold(),
                        Optional.empty()));
            } catch (MessagingException e) {
                failures.add(e);
                clusters.add(new SeekResult.Cluster(route.cluster(), route.physicalTopic(), 0, false, Optional.of(e.getMessage())));
            }
        }
        if (failures.size() == topic.routes().size()) {
            MessagingException first = failures.get(0);
            failures.stream().skip(1).forEach(first::addSuppressed);
            throw first;
        }
        SeekResult result = new SeekResult(logicTopic, group, clusters);
        log.info("consumer group '{}' of logic topic {} moved to {}: {}", group, logicTopic,
                to.map(Instant::toString).orElse("the latest offsets"), clusters);
        return result;
    }
}

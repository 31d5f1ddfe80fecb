package io.lanemq.configtool;

import io.lanemq.api.MessagingException;
import io.lanemq.config.ConfigSource;
import io.lanemq.config.ConfigSources;
import io.lanemq.config.LogicTopicConfig;
import io.lanemq.config.PlatformConfig;
import io.lanemq.config.TopicRoute;
import io.lanemq.rocketmq.DeadLetter;
import io.lanemq.rocketmq.DeadLetterQueue;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * A consumer group's dead letters of one logic topic on every cluster of the topic's routes, read from the platform
 * configuration the applications run on. A group's dead-letter topic holds what it gave up on for every topic it
 * consumes; only this logic topic's (its routes' physical topics and their stress-test shadows) are handed on.
 *
 * <p>Reads the brokers through the RocketMQ binding directly: dead-letter topics are RocketMQ's own, and the SDK's
 * binding contract has no such concept. A cluster that cannot be read is reported, and the others are still read.
 */
final class GroupDeadLetters implements AutoCloseable {
    /** One cluster of the topic: its dead-letter queue, or why it could not be opened. */
    private record ClusterQueue(String cluster, Optional<DeadLetterQueue> queue, Optional<String> failure) {
    }

    private final PlatformConfig config;
    private final LogicTopicConfig topic;
    private final List<ClusterQueue> clusters;

    private GroupDeadLetters(PlatformConfig config, LogicTopicConfig topic, List<ClusterQueue> clusters) {
        this.config = config;
        this.topic = topic;
        this.clusters = clusters;
    }

    /**
     * @throws MessagingException the configuration cannot be read, or does not declare the group on the topic
     *                            ({@link io.lanemq.api.UnknownTopicException})
     */
    static GroupDeadLetters open(GroupOptions options) throws MessagingException {
        PlatformConfig config;
        try (ConfigSource source = ConfigSources.open(options.configLocation, Optional.ofNullable(options.environment))) {
            config = source.load();
        }
        LogicTopicConfig topic = config.consumedTopic(options.logicTopic, options.group);
        String physicalGroup = config.physicalGroup(options.group);
        Set<String> names = new LinkedHashSet<>();
        topic.routes().stream().map(TopicRoute::cluster).forEach(names::add);
        List<ClusterQueue> clusters = new ArrayList<>();
        for (String cluster : names) {
            try {
                clusters.add(new ClusterQueue(cluster, Optional.of(DeadLetterQueue.open(config.cluster(cluster).endpoint(),
                        physicalGroup)), Optional.empty()));
            } catch (MessagingException e) {
                clusters.add(new ClusterQueue(cluster, Optional.empty(), Optional.of(e.getMessage())));
            }
        }
        return new GroupDeadLetters(config, topic, List.copyOf(clusters));
    }

    /** What a command does with one cluster's dead letters. */
    interface ClusterRead {
        /** The sink of the cluster's dead letters, oldest first; it answers false to stop reading this cluster. */
        Predicate<DeadLetter> sink(String cluster);

        /** The cluster's line once it was read (the dead-letter topic's name given for the operator's reference). */
        String summary(String cluster, String deadLetterTopic);
    }

    /**
     * Reads this logic topic's dead letters cluster by cluster, printing each cluster's summary, or a FAILED line for
     * one that could not be opened or read (the others are still read).
     *
     * @return whether every cluster was read
     */
    boolean readEach(PrintWriter out, ClusterRead read) {
        boolean complete = true;
        for (ClusterQueue cluster : clusters) {
            Optional<String> failure = cluster.failure();
            if (cluster.queue().isPresent()) {
                DeadLetterQueue queue = cluster.queue().get();
                Predicate<DeadLetter> sink = read.sink(cluster.cluster());
                try {
                    queue.read(letter -> !ofThisTopic(letter) || sink.test(letter));
                    out.println(read.summary(cluster.cluster(), queue.topic()));
                } catch (MessagingException e) {
                    failure = Optional.of(e.getMessage());
                }
            }
            if (failure.isPresent()) {
                out.println(cluster.cluster() + ": FAILED " + failure.get());
                complete = false;
            }
        }
        out.flush();
        return complete;
    }

    private boolean ofThisTopic(DeadLetter letter) {
        return config.topicOf(letter.cluster(), letter.originalTopic()).filter(found -> found.name().equals(topic.name()))
                .isPresent();
    }

    @Override
    public void close() {
        clusters.forEach(cluster -> cluster.queue().ifPresent(DeadLetterQueue::close));
    }
}

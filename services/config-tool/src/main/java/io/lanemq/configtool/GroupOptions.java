package io.lanemq.configtool;

import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * What a command about one consumer group names ({@code seek}, {@code dlq}): the group, its logic topic, and the
 * platform configuration they live in.
 */
final class GroupOptions {
    @Parameters(index = "0", paramLabel = "<logic-topic>")
    String logicTopic;

    @Parameters(index = "1", paramLabel = "<consumer-group>")
    String group;

    @Option(names = "--config", required = true, paramLabel = "<location>",
            description = "The platform configuration the applications run on: file:/path/platform.yaml or etcd://...")
    String configLocation;

    @Option(names = "--env", paramLabel = "<environment>", description = "The environment whose topics and groups to use.")
    String environment;
}

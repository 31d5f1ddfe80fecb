package io.lanemq.configtool;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code dlq list|show|replay}: a consumer group's dead letters on every cluster of its logic topic, and their replay
 * to the logic topic once the consumer is fixed.
 */
@Command(name = "dlq", mixinStandardHelpOptions = true,
        description = "A consumer group's dead letters (RocketMQ's %%DLQ%%<group>) on every cluster: list, show, replay.",
        subcommands = {DlqListCommand.class, DlqShowCommand.class, DlqReplayCommand.class})
final class DlqCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "name a dlq subcommand: list, show or replay");
    }
}

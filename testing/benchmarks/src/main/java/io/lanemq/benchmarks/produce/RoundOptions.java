package io.lanemq.benchmarks.produce;

import picocli.CommandLine.Option;

/** The options every produce comparison shares: body size and how its alternating rounds run. */
public final class RoundOptions {
    @Option(names = "--body-bytes", defaultValue = "300", description = "Body size (default: ${DEFAULT-VALUE}).")
    int bodyBytes;

    @Option(names = "--round-seconds", defaultValue = "10", description = "Length of one measured round (default: ${DEFAULT-VALUE}).")
    int roundSeconds;

    @Option(names = "--rounds", defaultValue = "3", description = "Measured rounds per side, alternating (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--warmup-seconds", defaultValue = "5", description = "Unmeasured warm-up per side (default: ${DEFAULT-VALUE}).")
    int warmupSeconds;
}

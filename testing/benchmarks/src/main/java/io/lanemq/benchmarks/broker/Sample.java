package io.lanemq.benchmarks.broker;

import io.lanemq.benchmarks.cpu.CpuMeter;

/**
 * Messages moved over a measured window and the CPU spent meanwhile: by the clients (this JVM) and by the servers
 * under test (the name server and brokers of one IDC) apart, since a broker profile can only change the latter.
 */
record Sample(long messages, long wallNanos, long clientCpuNanos, long serverCpuNanos) {

    static final Sample NONE = new Sample(0, 0, 0, 0);

    static Sample of(long messages, CpuMeter.Usage usage) {
        return new Sample(messages, usage.wallNanos(), usage.ownCpuNanos(), usage.childCpuNanos());
    }

    Sample plus(Sample other) {
        return new Sample(messages + other.messages, wallNanos + other.wallNanos,
                clientCpuNanos + other.clientCpuNanos, serverCpuNanos + other.serverCpuNanos);
    }

    long cpuNanos() {
        return clientCpuNanos + serverCpuNanos;
    }

    double msgsPerSecond() {
        return wallNanos == 0 ? 0 : messages / (wallNanos / 1e9);
    }

    double cpuMsPerMessage() {
        return perMessageMs(cpuNanos());
    }

    double serverCpuMsPerMessage() {
        return perMessageMs(serverCpuNanos);
    }

    /** Messages per CPU-second of clients and servers together: the P7 measure, what a core buys. */
    double msgsPerCpuSecond() {
        return cpuNanos() == 0 ? 0 : messages / (cpuNanos() / 1e9);
    }

    /** Cores busy on average over the window. */
    double cores() {
        return wallNanos == 0 ? 0 : (double) cpuNanos() / wallNanos;
    }

    String describe() {
        return String.format("%,8.0f msgs/s %.3f CPU-ms/msg (servers %.3f) %,7.0f msgs/CPU-s %.2f cores",
                msgsPerSecond(), cpuMsPerMessage(), serverCpuMsPerMessage(), msgsPerCpuSecond(), cores());
    }

    private double perMessageMs(long nanos) {
        return messages == 0 ? 0 : nanos / 1e6 / messages;
    }
}

package io.lanemq.localstack;

/** Logging choices a main class makes before anything logs. */
public final class LoggingSetup {
    private LoggingSetup() {
    }

    /**
     * The RocketMQ jars bring a second slf4j provider (a bridge into RocketMQ's own shaded logging);
     * slf4j would pick whichever it finds first. Naming logback keeps our logs in our configuration,
     * and pointing RocketMQ's client at its own logback file keeps its logs out of {@code ~/logs}.
     */
    public static void pinLogback() {
        System.setProperty("slf4j.provider", "ch.qos.logback.classic.spi.LogbackServiceProvider");
        System.setProperty("slf4j.internal.verbosity", "WARN");
        System.setProperty("rmq.logback.configurationFile", "rmq.client.logback.xml");
        System.setProperty("rocketmq.log.level", "WARN");
        if (System.getProperty("rocketmq.log.root") == null) {
            System.setProperty("rocketmq.log.root", System.getProperty("java.io.tmpdir") + "/lanemq-rocketmq-logs");
        }
    }
}

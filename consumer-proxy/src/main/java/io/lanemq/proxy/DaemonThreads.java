package io.lanemq.proxy;

import java.util.concurrent.ThreadFactory;

/** Named daemon threads for the proxy's single-thread executors (their owners shut them down; daemon so a failed start never pins the JVM). */
final class DaemonThreads {
    private DaemonThreads() {
    }

    static ThreadFactory named(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }
}

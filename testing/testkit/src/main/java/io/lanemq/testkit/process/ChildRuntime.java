package io.lanemq.testkit.process;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * What both child mains share: loading settings, the orphan watchdog, the shutdown hook and the READY line.
 *
 * <p>The watchdog is why no child outlives its parent: the parent holds the write end of the child's stdin and
 * writes nothing but the stop command, so the read here returns end of file exactly when the parent is gone (even
 * after kill -9). An orphan's store is of no use to anyone, so it deletes its node directory and halts without a
 * graceful shutdown.
 */
final class ChildRuntime {

    /** Starts a server and returns the action that stops it gracefully. */
    @FunctionalInterface
    interface Server {
        Runnable start(Properties settings) throws Exception;
    }

    private ChildRuntime() {
    }

    static void run(String kind, String[] args, Server server) {
        PrintStream out = System.out;
        try {
            if (args.length != 1) {
                throw new IllegalArgumentException("usage: " + kind + " <settings.properties>");
            }
            Properties settings = load(Path.of(args[0]));
            watchParent(settings);
            Runnable stop = server.start(settings);
            Runtime.getRuntime().addShutdownHook(new Thread(stop, "testkit-" + kind + "-shutdown"));
            out.println(ChildProtocol.READY_MARKER + " pid=" + ProcessHandle.current().pid());
            out.flush();
        } catch (Throwable t) {
            System.err.println("testkit " + kind + " failed to start");
            t.printStackTrace();
            System.err.flush();
            // A failed RocketMQ start leaves non-daemon threads behind, so exiting normally could hang.
            Runtime.getRuntime().halt(2);
        }
    }

    private static Properties load(Path file) throws IOException {
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            p.load(in);
        }
        return p;
    }

    private static void watchParent(Properties settings) {
        String dir = settings.getProperty(ChildProtocol.ORPHAN_CLEANUP_DIR);
        String root = settings.getProperty(ChildProtocol.ORPHAN_CLEANUP_ROOT);
        Thread watchdog = new Thread(() -> {
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            try {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    if (line.trim().equals(ChildProtocol.STOP_COMMAND)) {
                        System.err.println("testkit: stop requested by the parent JVM");
                        System.exit(0); // runs the shutdown hook: the server's graceful shutdown
                    }
                }
            } catch (IOException ignored) {
                // A broken pipe means the same as end of file: the parent is gone.
            }
            System.err.println("testkit: parent JVM is gone, halting");
            if (dir != null && root != null) {
                deleteOrphanFiles(Path.of(dir), Path.of(root));
            }
            Runtime.getRuntime().halt(3);
        }, "testkit-parent-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
    }

    private static void deleteOrphanFiles(Path dir, Path root) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | RuntimeException ignored) {
            // Best effort: the directory is under a temp dir anyway.
        }
        // Sibling children delete their own directories; whoever finishes last removes the shared parents.
        for (Path p = dir.getParent(); p != null && p.startsWith(root); p = p.getParent()) {
            try {
                Files.deleteIfExists(p);
            } catch (IOException e) {
                return; // typically DirectoryNotEmptyException: a sibling is still cleaning up
            }
        }
    }
}

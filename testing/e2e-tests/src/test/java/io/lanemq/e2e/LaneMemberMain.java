package io.lanemq.e2e;

import static org.awaitility.Awaitility.await;

import io.lanemq.api.ClientOptions;
import io.lanemq.api.ConsumeResult;
import io.lanemq.api.Lane;
import io.lanemq.api.LaneOptions;
import io.lanemq.api.ReceivedMessage;
import io.lanemq.api.Subscription;
import io.lanemq.core.client.CoreMessagingClient;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Optional;

/**
 * One lane member of a consumer group in a JVM of its own, so a test can {@code kill -9} it: a
 * {@link CoreMessagingClient} in a lane, subscribed to one logic topic, that appends each message its
 * listener consumes to a file as {@code <key> <lane of the message>} (base: {@value #BASE}), flushed
 * before the listener answers, so whatever the file lists was consumed even if the process dies on the
 * next instruction. Prints {@value #READY} once its consumer runs and it sees a base member of the group
 * (until then it could not place base messages and would retry them later).
 *
 * <p>It halts as soon as its stdin reaches end of file: the parent holds the write end and never writes,
 * so that happens exactly when the parent JVM is gone, even by {@code kill -9}; no child outlives its test.
 *
 * <p>Arguments: {@code <config> <logic topic> <group> <lane> <certificate> <private key> <trusted CA>
 * <consumed file> <membership refresh ms>}; the forwarding token in {@value #TOKEN_VARIABLE}. With a proxy token
 * in {@value #PROXY_TOKEN_VARIABLE}, the group is in PROXY mode: the proxy knows the member's lane from its
 * Subscribe and there are no members to learn, so it is ready once subscribed (the test then waits for the
 * proxy to count its stream).
 */
public final class LaneMemberMain {
    static final String READY = "@@lane-member-ready@@";
    static final String BASE = "base";
    /** The forwarding token comes in the environment, as from a secret store, not on the command line. */
    static final String TOKEN_VARIABLE = "LANEMQ_LANE_TOKEN";
    /** Set for a member of a PROXY-mode group: the application's token for the consumer proxy. */
    static final String PROXY_TOKEN_VARIABLE = "LANEMQ_PROXY_TOKEN";
    private static final int ARGS = 9;

    private LaneMemberMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != ARGS) {
            System.err.println("usage: LaneMemberMain <config> <logic topic> <group> <lane> <certificate> <private key>"
                    + " <trusted CA> <consumed file> <membership refresh ms>; got " + args.length + " arguments");
            System.exit(2);
        }
        Thread watchdog = haltWhenTheParentIsGone();
        try {
            run(args);
            watchdog.join(); // runs until the parent kills this process or goes away
        } catch (Throwable t) {
            System.err.println("lane member failed to start");
            t.printStackTrace();
            System.err.flush();
            // The client may have started non-daemon threads: exiting normally could hang.
            Runtime.getRuntime().halt(2);
        }
    }

    private static void run(String[] args) throws Exception {
        String topic = args[1];
        String group = args[2];
        String lane = args[3];
        LaneOptions lanes = LaneOptions.builder().lane(lane).listen("127.0.0.1", 0)
                .tls(Path.of(args[4]), Path.of(args[5]), Path.of(args[6])).token(System.getenv(TOKEN_VARIABLE))
                .forwardTimeout(Duration.ofSeconds(10)).membershipRefresh(Duration.ofMillis(Long.parseLong(args[8]))).build();
        BufferedWriter consumed = Files.newBufferedWriter(Path.of(args[7]), StandardCharsets.UTF_8,
                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        String proxyToken = System.getenv(PROXY_TOKEN_VARIABLE);
        ClientOptions.Builder options = ClientOptions.builder("lane-member-" + lane).configLocation(args[0]).lanes(lanes);
        if (proxyToken != null) {
            options.proxyToken(proxyToken);
        }
        CoreMessagingClient client = CoreMessagingClient.start(options.build());
        Subscription subscription = Subscription.builder(topic, group).build();
        client.subscribe(subscription, message -> {
            record(consumed, message);
            return ConsumeResult.SUCCESS;
        });
        if (proxyToken == null) {
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
                    .until(() -> client.lanesWithMembers(subscription).orElseThrow().contains(Optional.empty()));
        }
        System.out.println(READY + " pid=" + ProcessHandle.current().pid());
        System.out.flush();
    }

    private static void record(BufferedWriter consumed, ReceivedMessage message) {
        String line = message.keys().get(0) + " " + message.lane().map(Lane::path).orElse(BASE);
        synchronized (consumed) {
            try {
                consumed.write(line);
                consumed.newLine();
                consumed.flush();
            } catch (IOException e) {
                // Thrown from the listener: the message is retried, not counted as consumed.
                throw new UncheckedIOException(e);
            }
        }
    }

    private static Thread haltWhenTheParentIsGone() {
        Thread watchdog = new Thread(() -> {
            InputStream in = System.in;
            try {
                while (in.read() >= 0) {
                    // The parent writes nothing; only end of file matters.
                }
            } catch (IOException ignored) {
                // A broken pipe means the same as end of file.
            }
            System.err.println("lane member: the parent JVM is gone, halting");
            Runtime.getRuntime().halt(3);
        }, "lane-member-parent-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
        return watchdog;
    }
}

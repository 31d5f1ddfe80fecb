package io.lanemq.benchmarks.transit;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.rocketmq.remoting.protocol.RequestCode;
import org.apache.rocketmq.remoting.protocol.ResponseCode;

/**
 * Requests the brokers received, by kind, read from RocketMQ's own count: every second each broker's remoting server
 * logs the request codes it received and the codes it wrote (responses, and requests it sent itself) since the last
 * line to {@code broker_traffic.log}, then resets them. A mark remembers where each file ended; {@link #since} sums the
 * lines written after it.
 */
final class BrokerRequests {
    private static final Pattern LINE = Pattern.compile("(Request|Response)Code Distribution: \\{([^}]*)}");
    private static final Pattern ENTRY = Pattern.compile("(-?\\d+):(\\d+)");
    private static final Map<Integer, String> REQUESTS = names(RequestCode.class);
    private static final Map<Integer, String> RESPONSES = names(ResponseCode.class);

    private final List<Path> logs;

    BrokerRequests(List<Path> logs) {
        this.logs = List.copyOf(logs);
    }

    /** Where each broker's log ends now. */
    long[] mark() {
        long[] ends = new long[logs.size()];
        for (int i = 0; i < logs.size(); i++) {
            try {
                ends[i] = Files.exists(logs.get(i)) ? Files.size(logs.get(i)) : 0;
            } catch (IOException e) {
                ends[i] = 0;
            }
        }
        return ends;
    }

    /** Received requests ("in NAME") and written codes ("out NAME") of every broker since {@code mark}, by kind. */
    Map<String, Long> since(long[] mark) {
        Map<String, Long> counts = new TreeMap<>();
        for (int i = 0; i < logs.size(); i++) {
            String text = tail(logs.get(i), mark[i]);
            Matcher line = LINE.matcher(text);
            while (line.find()) {
                boolean inbound = line.group(1).equals("Request");
                Matcher entry = ENTRY.matcher(line.group(2));
                while (entry.find()) {
                    int code = Integer.parseInt(entry.group(1));
                    String name = inbound ? "in " + REQUESTS.getOrDefault(code, String.valueOf(code))
                            : "out " + RESPONSES.getOrDefault(code, REQUESTS.getOrDefault(code, String.valueOf(code)));
                    counts.merge(name, Long.parseLong(entry.group(2)), Long::sum);
                }
            }
        }
        return counts;
    }

    private static String tail(Path log, long from) {
        if (!Files.exists(log)) {
            return "";
        }
        try (RandomAccessFile file = new RandomAccessFile(log.toFile(), "r")) {
            long length = file.length();
            if (length <= from) {
                return "";
            }
            byte[] bytes = new byte[(int) (length - from)];
            file.seek(from);
            file.readFully(bytes);
            return new String(bytes, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    /** The code constants of RocketMQ's code class by value (the first name where two share one). */
    private static Map<Integer, String> names(Class<?> codes) {
        Map<Integer, String> names = new HashMap<>();
        for (Field field : codes.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == int.class) {
                try {
                    names.putIfAbsent(field.getInt(null), field.getName());
                } catch (IllegalAccessException e) {
                    // a public constant is readable; nothing to name otherwise
                }
            }
        }
        return names;
    }
}

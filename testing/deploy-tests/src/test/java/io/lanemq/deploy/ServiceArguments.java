package io.lanemq.deploy;

import io.lanemq.console.ConsoleProperties;
import io.lanemq.delay.server.DelayServerMain;
import io.lanemq.proxy.boot.ProxyProperties;
import java.lang.reflect.Constructor;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import picocli.CommandLine;

/**
 * A container's arguments read by the service's own parser (Spring's binder for the proxy's {@code lanemq.proxy.*}
 * and the console's {@code lanemq.console.*}, picocli for the other two), so an option the service does not know fails here, and the address and grace
 * period are the ones the service will really use, defaults included.
 */
enum ServiceArguments {
    CONSUMER_PROXY("lanemq/consumer-proxy") {
        @Override
        Parsed parse(List<String> args) {
            Map<String, String> properties = propertyArguments("the proxy", args);
            ProxyProperties bound = new Binder(new MapConfigurationPropertySource(properties))
                    .bind("lanemq.proxy", Bindable.of(ProxyProperties.class), new NoUnboundElementsBindHandler(org.springframework.boot.context.properties.bind.BindHandler.DEFAULT))
                    .orElseThrow(() -> new IllegalArgumentException("no lanemq.proxy.* argument"));
            return new Parsed(bound.httpSocketAddress(), bound.validReadinessDelay(), bound.validShutdownGrace());
        }
    },
    DELAY_SERVER("lanemq/delay-server") {
        @Override
        Parsed parse(List<String> args) {
            CommandLine command = new CommandLine(new DelayServerMain());
            command.parseArgs(args.toArray(String[]::new));
            String http = command.getCommandSpec().findOption("--http-address").getValue();
            long grace = command.getCommandSpec().findOption("--shutdown-grace-seconds").<Long>getValue();
            long delay = command.getCommandSpec().findOption("--readiness-delay-seconds").<Long>getValue();
            return new Parsed(io.lanemq.service.http.HttpAddress.parse("--http-address", http), Duration.ofSeconds(delay),
                    Duration.ofSeconds(grace));
        }
    },
    CONSOLE("lanemq/platform-console") {
        @Override
        Parsed parse(List<String> args) {
            Map<String, String> properties = propertyArguments("the console", args);
            Map<String, String> server = new LinkedHashMap<>(properties);
            server.keySet().removeIf(key -> !key.startsWith("server."));
            if (!SERVER_PROPERTIES.containsAll(server.keySet())) {
                throw new IllegalArgumentException("the console is given server properties it is not meant to take: "
                        + server.keySet());
            }
            properties.keySet().removeAll(server.keySet());
            ConsoleProperties bound = new Binder(new MapConfigurationPropertySource(properties))
                    .bind("lanemq.console", Bindable.of(ConsoleProperties.class), new NoUnboundElementsBindHandler(org.springframework.boot.context.properties.bind.BindHandler.DEFAULT))
                    .orElseThrow(() -> new IllegalArgumentException("no lanemq.console.* argument"));
            return new Parsed(bound.httpSocketAddress(), bound.validReadinessDelay(), bound.validShutdownGrace());
        }
    },
    DIAL_TEST("lanemq/dial-test") {
        @Override
        Parsed parse(List<String> args) {
            try {
                // Its constructor takes the output stream and is package-private: the main builds it alone.
                Class<?> main = Class.forName("io.lanemq.dialtest.DialTestMain");
                Constructor<?> constructor = main.getDeclaredConstructor(java.io.PrintStream.class);
                constructor.setAccessible(true);
                CommandLine command = new CommandLine(constructor.newInstance(System.out));
                command.parseArgs(args.toArray(String[]::new));
                InetSocketAddress http = command.getCommandSpec().findOption("--http-address").getValue();
                Duration grace = command.getCommandSpec().findOption("--shutdown-grace").getValue();
                Duration delay = command.getCommandSpec().findOption("--readiness-delay").getValue();
                return new Parsed(http, delay, grace);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot build the dial test's command line: " + e, e);
            }
        }
    };

    /** The web server's settings the console's manifest may set (Spring Boot's, not the console's own). */
    private static final Set<String> SERVER_PROPERTIES = Set.of("server.address", "server.port");

    /** A Spring Boot service's {@code --property=value} arguments. */
    private static Map<String, String> propertyArguments(String service, List<String> args) {
        Map<String, String> properties = new LinkedHashMap<>();
        for (String arg : args) {
            if (!arg.startsWith("--") || !arg.contains("=")) {
                throw new IllegalArgumentException(service + " takes --property=value arguments only: " + arg);
            }
            properties.put(arg.substring(2, arg.indexOf('=')), arg.substring(arg.indexOf('=') + 1));
        }
        return properties;
    }

    /** What the service will do with those arguments. */
    record Parsed(InetSocketAddress httpAddress, Duration readinessDelay, Duration shutdownGrace) {
    }

    final String image;

    ServiceArguments(String image) {
        this.image = image;
    }

    abstract Parsed parse(List<String> args);

    static ServiceArguments ofImage(String image) {
        String repository = image.contains(":") ? image.substring(0, image.lastIndexOf(':')) : image;
        for (ServiceArguments service : values()) {
            if (service.image.equals(repository)) {
                return service;
            }
        }
        throw new IllegalArgumentException("no LaneMQ service is built as image " + image);
    }
}

package io.lanemq.localstack;

import io.lanemq.api.MessagingClient;
import io.lanemq.api.MessagingException;
import io.lanemq.config.DelayConfig;
import io.lanemq.testkit.RocketMqStack;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The JUnit 5 side of {@link LaneMqTest}: one {@link LocalPlatform} for the whole test JVM, on the JVM's shared
 * RocketMQ stack ({@link RocketMqStack#shared()}, stopped by a shutdown hook), with one configuration file whose
 * location is the system property {@value #CONFIG_LOCATION_PROPERTY}.
 *
 * <p>Why one platform, not one per class: Spring's test framework caches application contexts by their
 * configuration, not by system properties, so a context cached for one class and reused by the next must still
 * read a file that holds every class's topics. A class's topics are added to that file before its tests run;
 * running clients follow the file, as they follow any platform configuration change.
 *
 * <p>Test methods and constructors may take a {@link LocalPlatform} (to add topics, stress-test marks, a delay
 * server...) or a {@link MessagingClient} of application {@code "test"} (closed after the test or class).
 */
public final class LocalPlatformExtension implements BeforeAllCallback, ParameterResolver {
    /** The Spring Boot property the starter reads the platform configuration location from. */
    public static final String CONFIG_LOCATION_PROPERTY = "lanemq.config-location";

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(LocalPlatformExtension.class);
    private static final Object LOCK = new Object();
    private static LocalPlatform platform;
    /** Groups declared per topic so far, in this JVM. Guarded by {@link #LOCK}. */
    private static final Map<String, Set<String>> declared = new LinkedHashMap<>();

    /** The platform of this JVM, started on first use. */
    public static LocalPlatform platform() {
        synchronized (LOCK) {
            if (platform == null) {
                platform = LocalPlatform.on(RocketMqStack.shared());
                System.setProperty(CONFIG_LOCATION_PROPERTY, "file:" + platform.writeConfig());
            }
            return platform;
        }
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        Optional<LaneMqTest> annotation = AnnotationSupport.findAnnotation(context.getRequiredTestClass(), LaneMqTest.class);
        String[] topics = annotation.map(LaneMqTest::topics).orElse(new String[0]);
        if (inMemory(context)) {
            InMemoryPlatform memory = InMemoryPlatform.shared();
            for (String spec : topics) {
                TopicSpec.parse(spec, context.getRequiredTestClass().getName()).declareOn(memory);
            }
            return;
        }
        synchronized (LOCK) {
            LocalPlatform local = platform();
            boolean changed = false;
            if (annotation.map(LaneMqTest::delay).orElse(false) && local.delaySettings() == DelayConfig.DEFAULTS) {
                local.enableDelay();
                changed = true;
            }
            for (String spec : topics) {
                changed |= declare(local, spec, context.getRequiredTestClass().getName());
            }
            if (changed) {
                Path file = local.writeConfig();
                System.setProperty(CONFIG_LOCATION_PROPERTY, "file:" + file);
            }
        }
    }

    private static boolean inMemory(ExtensionContext context) {
        return AnnotationSupport.findAnnotation(context.getRequiredTestClass(), LaneMqTest.class)
                .map(test -> test.mode() == LaneMqTest.Mode.IN_MEMORY).orElse(false);
    }

    /** Adds a topic, or groups to a declared one; false when everything was declared already. */
    private static boolean declare(LocalPlatform local, String spec, String testClass) {
        TopicSpec parsed = TopicSpec.parse(spec, testClass);
        String topic = parsed.topic();
        Set<String> groups = parsed.groups();
        Set<String> known = declared.get(topic);
        if (known != null && known.containsAll(groups)) {
            return false;
        }
        Set<String> all = new LinkedHashSet<>(known == null ? Set.of() : known);
        all.addAll(groups);
        try {
            local.addTopic(topic, 4, 50, 50, all.toArray(String[]::new));
        } catch (IllegalArgumentException e) {
            throw new ExtensionConfigurationException("@LaneMqTest(topics) of " + testClass + ": '" + spec + "': " + e.getMessage(), e);
        }
        declared.put(topic, all);
        return true;
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == LocalPlatform.class || type == MessagingClient.class || type == InMemoryPlatform.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        boolean inMemory = inMemory(context);
        if (type == InMemoryPlatform.class) {
            if (!inMemory) {
                throw new ParameterResolutionException("InMemoryPlatform is the platform of @LaneMqTest(mode = IN_MEMORY);"
                        + " this test runs on real brokers: take a LocalPlatform");
            }
            return InMemoryPlatform.shared();
        }
        if (type == LocalPlatform.class) {
            if (inMemory) {
                throw new ParameterResolutionException("LocalPlatform is the embedded platform; this test runs in memory:"
                        + " take an InMemoryPlatform");
            }
            return platform();
        }
        try {
            MessagingClient client = inMemory ? InMemoryPlatform.shared().client("test") : platform().client("test");
            // Closed with the test (or the class, for a constructor parameter) that asked for it.
            context.getStore(NAMESPACE).put(new Object(), (ExtensionContext.Store.CloseableResource) client::close);
            return client;
        } catch (MessagingException e) {
            throw new ParameterResolutionException("cannot start a client of the local platform: " + e.getMessage(), e);
        }
    }
}

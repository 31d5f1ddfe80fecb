package io.lanemq.localstack;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;

/**
 * Puts the {@link InMemoryPlatform} into the application context of a Spring test annotated
 * {@code @LaneMqTest(mode = IN_MEMORY)}: its binding as a bean, which the starter's client runs on instead of the
 * class path's RocketMQ, and {@code lanemq.config-location} pointing at its configuration, ahead of every other
 * property source. Registered in {@code META-INF/spring.factories}; does nothing for other tests. Declares the class's
 * topics itself, so it does not depend on whether JUnit's extension or Spring's context comes first.
 */
public final class InMemoryContextCustomizerFactory implements ContextCustomizerFactory {
    @Override
    public ContextCustomizer createContextCustomizer(Class<?> testClass, List<ContextConfigurationAttributes> configurations) {
        Optional<LaneMqTest> test = Optional.ofNullable(AnnotatedElementUtils.findMergedAnnotation(testClass, LaneMqTest.class));
        return test.filter(annotation -> annotation.mode() == LaneMqTest.Mode.IN_MEMORY)
                .map(annotation -> new InMemoryCustomizer(List.of(annotation.topics()), testClass.getName())).orElse(null);
    }

    /** Equal for every in-memory test, so Spring caches one context per configuration as usual. */
    private record InMemoryCustomizer(List<String> topics, String testClass) implements ContextCustomizer {
        @Override
        public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration configuration) {
            InMemoryPlatform platform = InMemoryPlatform.shared();
            topics.forEach(spec -> TopicSpec.parse(spec, testClass).declareOn(platform));
            context.getBeanFactory().registerSingleton("laneMqInMemoryBinding", platform.binding());
            context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("lanemq-in-memory",
                    Map.of(LocalPlatformExtension.CONFIG_LOCATION_PROPERTY, platform.configLocation())));
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof InMemoryCustomizer;
        }

        @Override
        public int hashCode() {
            return InMemoryCustomizer.class.hashCode();
        }
    }
}

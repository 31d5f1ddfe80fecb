package io.lanemq.core.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.api.spi.MessagingBinding;
import io.lanemq.rocketmq.RocketMqBinding;
import io.lanemq.testkit.memory.MemoryBinding;
import java.io.IOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which binding a client gets from the class path, and what it is told when that is not one obvious binding. */
class BindingLoaderTest {
    @TempDir
    Path dir;

    @Test
    void theOnlyBindingOnTheClassPathIsTakenWithoutBeingNamed() throws Exception {
        assertThat(BindingLoader.load(Optional.empty(), registering(MemoryBinding.class))).isInstanceOf(MemoryBinding.class);
    }

    @Test
    void withTwoBindingsTheConfigurationMustNameOne() throws Exception {
        ClassLoader both = registering(RocketMqBinding.class, MemoryBinding.class);

        assertThat(BindingLoader.load(Optional.of("memory"), both)).isInstanceOf(MemoryBinding.class);
        assertThatThrownBy(() -> BindingLoader.load(Optional.empty(), both)).isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("found [rocketmq, memory]").hasMessageContaining("configuration key 'binding'");
    }

    @Test
    void aNamedBindingThatIsMissingOrNoBindingAtAllIsAConfigurationErrorListingWhatWasFound() throws Exception {
        assertThatThrownBy(() -> BindingLoader.load(Optional.of("kafka"), registering(MemoryBinding.class)))
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("binding 'kafka'").hasMessageContaining("found [memory]");
        assertThatThrownBy(() -> BindingLoader.load(Optional.empty(), registering()))
                .isInstanceOf(InvalidConfigurationException.class).hasMessageContaining("e.g. sdk-rocketmq), found []");
    }

    /** A class loader whose only registration of {@link MessagingBinding} lists {@code bindings}; classes load as usual. */
    @SafeVarargs
    private ClassLoader registering(Class<? extends MessagingBinding>... bindings) throws IOException {
        Path file = Files.createTempFile(dir, "bindings", ".txt");
        Files.writeString(file, List.of(bindings).stream().map(Class::getName).collect(Collectors.joining("\n")),
                StandardCharsets.UTF_8);
        URL registration = file.toUri().toURL();
        String service = "META-INF/services/" + MessagingBinding.class.getName();
        return new ClassLoader(getClass().getClassLoader()) {
            @Override
            public Enumeration<URL> getResources(String name) throws IOException {
                return name.equals(service) ? Collections.enumeration(List.of(registration)) : super.getResources(name);
            }
        };
    }
}

package io.lanemq.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.api.spi.ClientProvider;
import java.lang.module.ModuleDescriptor;
import org.junit.jupiter.api.Test;

/** The API as a named module: these tests run on the module path, so what it exports and loads is the descriptor's. */
class ModuleDescriptorTest {
    private final ModuleDescriptor descriptor = MessagingClient.class.getModule().getDescriptor();

    @Test
    void theApiIsTheNamedModuleThatExportsTheApiAndTheBindingSpiAndNothingElse() {
        assertThat(descriptor).as("sdk-api runs as a named module in its own tests").isNotNull();
        assertThat(descriptor.name()).isEqualTo("io.lanemq.api");
        assertThat(descriptor.exports()).extracting(ModuleDescriptor.Exports::source)
                .containsExactlyInAnyOrder("io.lanemq.api", "io.lanemq.api.spi");
        assertThat(descriptor.requires()).extracting(ModuleDescriptor.Requires::name).as("JDK only").containsExactly("java.base");
    }

    @Test
    void itDeclaresTheServiceItLoadsTheCoreThrough() {
        assertThat(descriptor.uses()).containsExactly(ClientProvider.class.getName());
    }
}

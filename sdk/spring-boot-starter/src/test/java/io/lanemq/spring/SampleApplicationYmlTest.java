package io.lanemq.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lanemq.api.ClientOptions;
import io.lanemq.testkit.RepoRoot;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.PropertySourcesPlaceholdersResolver;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.FileSystemResource;
import org.springframework.core.io.Resource;

/**
 * The sample {@code examples/application.yml} binds to {@link LaneMqProperties} with no key left over (a misspelt or
 * removed property fails here, not in a reader's application) and yields valid client options.
 */
class SampleApplicationYmlTest {
    @Test
    void theSampleBindsEveryKeyAndGivesValidClientOptions() throws Exception {
        LaneMqProperties properties = bindEveryKey(new FileSystemResource(RepoRoot.resolve("examples", "application.yml")));
        ClientOptions options = properties.clientOptions();

        assertThat(options.applicationName()).isEqualTo("orders");
        assertThat(properties.getContext().getLaneHeader()).isEqualTo("X-LaneMQ-Lane");
        assertThat(properties.getLanes().isEnabled()).isFalse();
    }

    @Test
    void aKeyTheStarterDoesNotKnowFailsTheBinding() {
        ByteArrayResource misspelt = new ByteArrayResource("lanemq:\n  application-name: orders\n  config-locaton: x\n"
                .getBytes(StandardCharsets.UTF_8), "misspelt");

        assertThatThrownBy(() -> bindEveryKey(misspelt)).isInstanceOf(BindException.class)
                .rootCause().hasMessageContaining("config-locaton");
    }

    /** Binds lanemq.* as the application would, failing on any key left over. */
    private static LaneMqProperties bindEveryKey(Resource yaml) throws IOException {
        List<PropertySource<?>> loaded = new YamlPropertySourceLoader().load("sample", yaml);
        StandardEnvironment environment = new StandardEnvironment();
        loaded.forEach(source -> environment.getPropertySources().addFirst(source));
        Binder binder = new Binder(ConfigurationPropertySources.get(environment),
                new PropertySourcesPlaceholdersResolver(environment));
        return binder.bind(LaneMqProperties.PREFIX, Bindable.of(LaneMqProperties.class),
                new NoUnboundElementsBindHandler(BindHandler.DEFAULT)).get();
    }
}

package io.lanemq.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.api.ClientOptions;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.PropertySourcesPlaceholdersResolver;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.FileSystemResource;

/**
 * The sample {@code examples/application.yml} binds to {@link LaneMqProperties} with no key left over (a misspelt or
 * removed property fails here, not in a reader's application) and yields valid client options.
 */
class SampleApplicationYmlTest {
    @Test
    void theSampleBindsEveryKeyAndGivesValidClientOptions() throws Exception {
        Path sample = Path.of("..", "examples", "application.yml");
        List<PropertySource<?>> loaded = new YamlPropertySourceLoader().load("sample", new FileSystemResource(sample));
        StandardEnvironment environment = new StandardEnvironment();
        loaded.forEach(source -> environment.getPropertySources().addFirst(source));
        Binder binder = new Binder(ConfigurationPropertySources.get(environment),
                new PropertySourcesPlaceholdersResolver(environment));

        LaneMqProperties properties = binder.bind(LaneMqProperties.PREFIX, Bindable.of(LaneMqProperties.class),
                new NoUnboundElementsBindHandler(BindHandler.DEFAULT)).get();
        ClientOptions options = properties.clientOptions();

        assertThat(options.applicationName()).isEqualTo("orders");
        assertThat(properties.getContext().getLaneHeader()).isEqualTo("X-LaneMQ-Lane");
        assertThat(properties.getLanes().isEnabled()).isFalse();
    }
}

package io.lanemq.console;

import io.lanemq.config.etcd.EtcdClient;
import io.lanemq.config.etcd.EtcdSecurity;
import io.lanemq.config.store.ConfigStore;
import io.lanemq.console.access.Ownership;
import io.lanemq.console.access.UsersFile;
import io.lanemq.console.edit.ConfigEditor;
import io.lanemq.console.health.HealthScraper;
import java.util.Optional;
import org.springframework.boot.autoconfigure.web.ServerProperties;
import org.springframework.boot.web.server.Ssl;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.server.ConfigurableServletWebServerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The console's parts, from its validated properties. */
@Configuration(proxyBeanMethods = false)
class ConsoleConfiguration {

    @Bean(destroyMethod = "close")
    EtcdClient etcdClient(ConsoleProperties properties) {
        String endpoints = properties.required("etcd-endpoints", properties.getEtcdEndpoints());
        EtcdSecurity security = properties.etcdSecurity();
        try {
            return EtcdClient.builder(endpoints).security(security).build();
        } catch (IllegalArgumentException e) {
            throw new InvalidConsolePropertyException(ConsoleProperties.PREFIX + "etcd-endpoints", e.getMessage(), e);
        }
    }

    @Bean
    ConfigStore configStore(EtcdClient etcd, ConsoleProperties properties) {
        String key = properties.required("config-key", properties.getConfigKey());
        if (!key.startsWith("/")) {
            throw new InvalidConsolePropertyException(ConsoleProperties.PREFIX + "config-key", "must start with '/', was " + key);
        }
        return new ConfigStore(etcd, key);
    }

    @Bean
    UsersFile usersFile(ConsoleProperties properties) {
        if (properties.getUsersFile() == null) {
            throw new InvalidConsolePropertyException(ConsoleProperties.PREFIX + "users-file", "is required");
        }
        try {
            return UsersFile.read(properties.getUsersFile());
        } catch (IllegalArgumentException e) {
            throw new InvalidConsolePropertyException(ConsoleProperties.PREFIX + "users-file", e.getMessage(), e);
        }
    }

    @Bean
    Ownership ownership(UsersFile users) {
        return new Ownership(users);
    }

    @Bean
    ConfigEditor configEditor(ConfigStore store, Ownership ownership) {
        return new ConfigEditor(store, ownership);
    }

    @Bean
    HealthScraper healthScraper(ConsoleProperties properties) {
        return new HealthScraper(Optional.ofNullable(properties.getDialTestMetricsUrl()), properties.getSdkMetricsUrls(),
                Optional.ofNullable(properties.getPrometheusUrl()), properties.validPrometheusWindow());
    }

    @Bean
    WebServerFactoryCustomizer<ConfigurableServletWebServerFactory> transportSecurity(ConsoleProperties properties,
            ServerProperties server, ConsoleApplication.EnvironmentVariables environment) {
        Ssl ssl = TransportSecurity.decide(properties, server.getAddress(), environment.lookup());
        return factory -> {
            if (ssl != null) {
                factory.setSsl(ssl);
            }
        };
    }
}

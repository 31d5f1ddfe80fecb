package io.lanemq.core.client;

import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.api.spi.MessagingBinding;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.stream.Collectors;

/** Finds the MQ binding on the class path: the one the configuration names, or the only one there. */
final class BindingLoader {
    private BindingLoader() {
    }

    static MessagingBinding load(Optional<String> wanted, ClassLoader classLoader) throws InvalidConfigurationException {
        List<MessagingBinding> found = ServiceLoader.load(MessagingBinding.class, classLoader).stream()
                .map(ServiceLoader.Provider::get).collect(Collectors.toList());
        List<String> names = found.stream().map(MessagingBinding::name).collect(Collectors.toList());
        if (wanted.isPresent()) {
            return found.stream().filter(b -> b.name().equals(wanted.get())).findFirst()
                    .orElseThrow(() -> new InvalidConfigurationException("binding '" + wanted.get()
                            + "' named by the platform configuration is not on the class path; found " + names));
        }
        if (found.size() != 1) {
            throw new InvalidConfigurationException("expected one MQ binding on the class path (e.g. sdk-rocketmq), found "
                    + names + (found.isEmpty() ? "" : "; name one with the configuration key 'binding'"));
        }
        return found.get(0);
    }
}
